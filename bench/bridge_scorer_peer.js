// Times the npm package bridge-scorer on boards given as JSON on stdin, for bench/engine_bench.py.
// Input: {"module": "<path to node_modules/bridge-scorer>", "repeat": N, "boards": [[ns scores], ...]}
// Output (one JSON line): for each board, the median milliseconds of matchpoints (both directions),
// crossImps and butler, and the scores of each (N-S and E-W) so that the caller can compare them.
'use strict';
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const scorer = require(input.module);

function games(scores) {
  // bridge-scorer reads a declarer's score; N declares, so the score is N-S's (0: passed out)
  return scores.map((score) => ({ score: score, contract: { declaror: 'N' } }));
}

function median(fn, scores) {
  const times = [];
  for (let r = 0; r < input.repeat; r++) {
    const g = games(scores);
    const start = process.hrtime.bigint();
    fn(g);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

function values(fn, scores, ns, ew) {
  const g = games(scores);
  fn(g);
  return g.map((game) => [game[ns].value, game[ew].value]);
}

const out = input.boards.map((scores) => ({
  n: scores.length,
  ms: {
    matchpoints: median((g) => scorer.matchpoints(g), scores),
    cross_imps: median((g) => scorer.crossImps(g), scores),
    butler: median((g) => scorer.butler(g), scores),
  },
  scores: {
    matchpoints: values((g) => scorer.matchpoints(g), scores, 'matchpointsNS', 'matchpointsEW'),
    cross_imps: values((g) => scorer.crossImps(g), scores, 'impsNS', 'impsEW'),
    butler: values((g) => scorer.butler(g), scores, 'impsNS', 'impsEW'),
  },
}));
process.stdout.write(JSON.stringify(out) + '\n');
