// A host page's side of the progress events (README, "Progress events"): what an LMS
// integration does, without an LMS. It mounts the quiz, turns each event into the xAPI
// statement a platform would send (shown in the gradebook table), keeps the learner's state in
// localStorage after every answer (an LMS's suspend data), and resumes from it on a later visit.
import { mount } from '../permlab.js';

const KEY = 'permlab-demo-progress';
const el = document.getElementById('quiz');
const rows = document.getElementById('statements');
const status = document.getElementById('status');
const score = document.getElementById('score');

/** The xAPI verb each event maps to (null: nothing to send). */
const VERBS = {
  'permlab:ready': 'initialized',
  'permlab:guess': null,
  'permlab:reveal': 'experienced',
  'permlab:answer': 'answered',
  'permlab:reorder': 'interacted',
  'permlab:complete': 'completed',
};

let handle;

function question(d) {
  if (!d.call) return d.lesson ?? '';
  const n = d.call.index ? `call ${d.call.index}` : 'a typed call';
  return `${d.preset} · ${n} (${d.call.tool}: ${d.call.input})${d.engine ? ` · ${d.engine}` : ''}`;
}

function row(name, d) {
  const tr = document.createElement('tr');
  const cells = [rows.children.length + 1, name, VERBS[name] ?? '—', question(d), '', ''];
  if (name === 'permlab:answer') {
    cells[4] = `${d.guess} (attempt ${d.attempt})`;
    cells[5] = `${d.correct ? 'correct' : 'wrong'}: ${d.verdict}${d.scored ? ', scored' : ''}`;
  } else if (name === 'permlab:guess') {
    cells[4] = `${d.guess} (attempt ${d.attempt})`;
  } else if (name === 'permlab:reorder') {
    cells[4] = d.change + (d.from ? ` #${d.from} → #${d.to}` : '');
    cells[5] = d.flipped.length ? `flipped: ${d.flipped.join(', ')}` : 'no verdict flipped';
  } else if (name === 'permlab:complete') {
    cells[5] = `${d.score.raw}/${d.score.max} (${Math.round(d.score.scaled * 100)} %), ${d.passed ? 'passed' : 'failed'}`;
  } else if (name === 'permlab:ready') {
    cells[5] = d.valid ? `${d.questions} questions` : `lesson problems: ${d.problems.join(' / ')}`;
  }
  for (const c of cells) {
    const td = document.createElement('td');
    td.textContent = String(c);
    tr.append(td);
  }
  tr.dataset.event = name;
  rows.append(tr);
}

function save() {
  const state = handle?.state();
  if (state) localStorage.setItem(KEY, JSON.stringify(state));
  return state;
}

for (const name of Object.keys(VERBS)) {
  el.addEventListener(name, (e) => {
    row(name, e.detail);
    if (name === 'permlab:complete') {
      const d = e.detail;
      score.textContent = `Score: ${d.score.raw} of ${d.score.max} — ${d.passed ? 'passed' : 'not passed'} (passing: ${Math.round(d.passing * 100)} %).`;
      score.dataset.passed = String(d.passed);
    }
    // Like an LMS's suspend data: the state after every answer and reorder.
    if (name === 'permlab:answer' || name === 'permlab:reorder' || name === 'permlab:complete') save();
  });
}

document.getElementById('save').addEventListener('click', () => {
  status.textContent = save() ? 'Saved.' : 'Nothing to save.';
});
document.getElementById('restore').addEventListener('click', () => {
  const saved = localStorage.getItem(KEY);
  if (!saved) { status.textContent = 'Nothing saved yet.'; return; }
  try {
    handle.restore(JSON.parse(saved));
    status.textContent = 'Restored.';
  } catch (err) {
    status.textContent = `Could not restore: ${err.message}`;
  }
});
document.getElementById('reset').addEventListener('click', () => {
  handle.reset();
  localStorage.removeItem(KEY);
  score.textContent = 'Score: not complete yet.';
  delete score.dataset.passed;
  status.textContent = 'Started over.';
});

handle = await mount(el);
// A later visit resumes where the learner was (a state saved with another lesson is refused).
const saved = localStorage.getItem(KEY);
if (saved) {
  try {
    handle.restore(JSON.parse(saved));
    status.textContent = 'Resumed from your last visit.';
  } catch (err) {
    localStorage.removeItem(KEY);
    status.textContent = `Could not resume: ${err.message}`;
  }
}
