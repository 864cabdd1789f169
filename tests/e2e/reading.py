"""What a reader of a right-to-left language meets on every page a browser test passes (issue #42):
the page is right to left in the reader's language; it shows no English of the interface (the
check of tests/test_every_language.py, on the page as the browser holds it: no catalogue message
and no stored text in English, what is marked with another ``lang`` aside); and no scrambled line:
every fragment that must read left to right (Latin letters, a signed number, a percentage) is
drawn in the order it is written, measured from the boxes of its characters as
tests/e2e/test_reader_screenshots.py measures a score.

``Reader(language).watch(page)`` checks each page ``page`` loads; ``reader.problems`` lists what
was found, with the page's address."""

from urllib.parse import urlsplit

from tests.test_every_language import PUBLISHED, found_in, shown_html
from tests.test_every_language_demo import without_demo_literals

# Each fragment of the page's visible text that reads left to right, as written and as drawn. A
# fragment runs from a Latin letter, a contract or law number or a sign before a digit to the next
# right-to-left letter; outside an element marked with another language its edges' punctuation and brackets
# belong to the right-to-left sentence around it and are left out (a bracket it opens, it closes).
# Digits and punctuation alone are read right to left with their sentence ("12 · 14", "13: Rivka"),
# as they should be. The
# characters drawn are put in reading order: by line, then left to right. Chromium gives a
# one-character range at the start of a text node no box; such a character is placed from the box
# of it and the next.
SCRAMBLED = r"""() => {
  const RTL = '\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFF';
  // From a Latin letter, a number that a letter follows (4S, 16B1a) or a sign before a digit that
  // no letter precedes (a Hebrew prefix's hyphen, ב-17, is the sentence's), to the next
  // right-to-left letter.
  const FRAGMENT = new RegExp(
    `(?:[A-Za-z]|\\d+[A-Za-z]|(?<![\\p{L}\\d])[+\\-\u2212](?=\\d))[^${RTL}]*`, 'gu');
  // Spaces and the invisible marks of direction (LRM, RLM, embeddings, isolates) draw nothing.
  const BLANK = /[\s\u200e\u200f\u202a-\u202e\u2066-\u2069]/, BLANKS = /[\s\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g;
  const page = document.documentElement.lang, found = [];
  const boxOf = (node, i) => { const range = document.createRange();
    range.setStart(node, i); range.setEnd(node, i + 1); return range.getClientRects()[0]; };
  const drawn = (node, start, end) => {
    const out = [];
    for (let i = start; i < end; i++) {
      if (BLANK.test(node.data[i])) continue;
      let own = boxOf(node, i);
      if (!own && i + 1 < node.length) { const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 2);
        const both = range.getClientRects()[0], next = boxOf(node, i + 1);
        if (both && next) own = { left: both.left < next.left - 0.5 ? both.left : next.right,
                                  top: both.top, height: both.height }; }
      if (!own || !own.height) return null;  // not drawn: hidden, or closed in a <details>
      out.push([node.data[i], own.left, own.top, own.height]);
    }
    out.sort((a, b) => a[2] - b[2]);
    let line = 0, top = out.length ? out[0][2] : 0;
    for (const char of out) { if (char[2] - top > char[3] / 2) { line += 1; top = char[2]; } char.push(line); }
    out.sort((a, b) => a[4] - b[4] || a[1] - b[1]);
    return out.map(char => char[0]).join('');
  };
  const count = (text, char) => text.split(char).length - 1;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest('script, style, noscript, template, svg')) continue;
    const marked = parent.closest('[lang]'), own = !marked || marked.lang === page;
    const edge = own ? /[\s\u200e\u200f\u202a-\u202e\u2066-\u2069.,;:!?·()\[\]"'“”—–-]/ : BLANK;
    for (const match of node.data.matchAll(FRAGMENT)) {
      const start = match.index, whole = start + match[0].length;
      let end = whole;
      while (end > start && edge.test(node.data[end - 1])) end -= 1;
      // A bracket opened inside the fragment is closed inside it: "CEST (Europe/Amsterdam)".
      const close = node.data.indexOf(')', end);
      if (count(node.data.slice(start, end), '(') > count(node.data.slice(start, end), ')') && close >= 0 && close < whole) end = close + 1;
      const text = node.data.slice(start, end), seen = drawn(node, start, end);
      if (seen !== null && seen !== text.replace(BLANKS, '')) {
        found.push({text, seen, where: `${parent.tagName.toLowerCase()}${parent.className ? '.' + parent.className : ''}`,
                    line: node.data.trim().slice(0, 80)});
      }
    }
  }
  return found;
}"""


def problems_on(page, language):
    """What the page ``page`` shows that a reader of ``language`` (right to left) should not see."""
    path = urlsplit(page.url).path
    if PUBLISHED.search(path) and page.get_attribute("html", "lang") != language:
        return []  # a casebook is published in its body's language, whoever reads it
    found = []
    if page.get_attribute("html", "dir") != "rtl" or page.get_attribute("html", "lang") != language:
        found.append(f"not a right-to-left page in {language}")
    found += found_in(without_demo_literals(shown_html(page.content(), language, path)), language)
    found += [
        f"scrambled line: {each['text']!r} is drawn {each['seen']!r} in <{each['where']}> {each['line']!r}"
        for each in page.evaluate(SCRAMBLED)
    ]
    return [f"{path}: {what}" for what in found]


class Reader:
    """Reads every page the pages it watches load, as a reader of ``language`` would."""

    def __init__(self, language):
        self.language, self.problems, self.pages = language, [], []

    def watch(self, page):
        page.on("load", self.read)
        return page

    def read(self, page):
        if page.get_attribute("html", "lang") is None:  # not a page of the site (a file, a blank tab)
            return
        self.pages.append(urlsplit(page.url).path)
        self.problems += [what for what in problems_on(page, self.language) if what not in self.problems]

    def assert_clean(self):
        assert self.pages, "no page was read"
        assert not self.problems, f"{len(self.problems)} problems on {len(set(self.pages))} pages:\n" + "\n".join(
            self.problems
        )
