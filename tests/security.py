"""What the Content-Security-Policy forbids, found in HTML, and the headers every response
carries (issue #30): shared by tests/test_security_headers.py and the role matrix, which checks
every page for every role."""

import re

# An inline script (a <script> with no src that is not a JSON data block), a <style> element, a
# style="..." attribute, an on...="..." handler, a javascript: address.
INLINE = [
    ("inline script", re.compile(r"<script\b(?![^>]*\bsrc=)(?![^>]*type=\"application/(?:ld\+)?json\")[^>]*>", re.I)),
    ("<style> element", re.compile(r"<style\b", re.I)),
    ("style attribute", re.compile(r"<[a-z][^>]*\sstyle\s*=", re.I)),
    ("event handler attribute", re.compile(r"<[a-z][^>]*\son[a-z]+\s*=", re.I)),
    ("javascript: address", re.compile(r"=\s*[\"']?\s*javascript:", re.I)),
]


def inline_code(html):
    """Each (kind, line number, line) of inline code in ``html``."""
    found = []
    for number, line in enumerate(html.splitlines(), 1):
        found += [(kind, number, line.strip()[:160]) for kind, pattern in INLINE if pattern.search(line)]
    return found


CSP = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "object-src": "'none'",
    "frame-ancestors": "'none'",
    "base-uri": "'self'",
    "form-action": "'self'",
}


def header_problems(response, where=""):
    """What is missing from ``response``'s security headers."""
    problems = []
    policy = response.headers.get("Content-Security-Policy")
    if not policy:
        return [f"no Content-Security-Policy: {where}"]
    directives = dict((part.strip().split(" ", 1) + [""])[:2] for part in policy.split(";") if part.strip())
    for name, value in CSP.items():
        if directives.get(name) != value:
            problems.append(f"{name} is {directives.get(name)!r}, not {value!r}: {where}")
    if "unsafe-inline" in policy or "unsafe-eval" in policy:
        problems.append(f"the policy allows inline code: {policy}: {where}")
    permissions = response.headers.get("Permissions-Policy", "")
    if "camera=()" not in permissions or "geolocation=()" not in permissions:
        problems.append(f"Permissions-Policy is {permissions!r}: {where}")
    return problems


def page_problems(response, where=""):
    """Headers, and inline code in an HTML answer."""
    problems = header_problems(response, where)
    if response.headers.get("Content-Type", "").startswith("text/html") and not getattr(response, "streaming", False):
        body = response.content.decode("utf-8", "replace")
        problems += [f"{kind} on line {number} ({line}): {where}" for kind, number, line in inline_code(body)]
    return problems
