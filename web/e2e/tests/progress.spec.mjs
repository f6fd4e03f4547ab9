// A course platform's side: web/demo/progress.html listens like a gradebook. A quiz answered
// (some right, some wrong, a skip, one after a reorder, a retry) gives the events a platform
// records and a complete with the right score; state() → a fresh browser → restore() gives the
// same widget back; reset() starts over; a broken lesson says so in permlab:ready; mount() with
// another lesson re-mounts.
import { test, expect } from './fixtures.mjs';
import { panelOf, orderOf, guessAndReveal } from './reveal-helpers.mjs';

/** Records every permlab:* event that reaches `document`, from the page's first script on. */
async function record(page) {
  await page.addInitScript(() => {
    window.__events = [];
    for (const n of ['ready', 'guess', 'reveal', 'answer', 'reorder', 'complete']) {
      document.addEventListener(`permlab:${n}`, (e) => window.__events.push({ name: n, target: e.target.id, detail: e.detail }));
    }
  });
}

const events = (page, name) => page.evaluate((n) => window.__events.filter((e) => e.name === n).map((e) => e.detail), name);

/** The progress page, its quiz mounted and ready. */
async function progressPage(page) {
  await record(page);
  await page.goto('./demo/progress.html');
  const w = page.locator('#quiz .pl-widget');
  await expect(w.locator('tbody.pl-rules tr')).toHaveCount(2);
  await expect.poll(async () => (await events(page, 'ready')).length).toBeGreaterThan(0);
  return w;
}

const CALL1 = { index: 1, tool: 'bash', input: 'git push origin main' };
const CALL2 = { index: 2, tool: 'bash', input: 'git status' };

test('a quiz answered on the progress page: ready, answers with attempts, one complete with the first-attempt score', async ({ page, problems }) => {
  const w = await progressPage(page);
  expect(await events(page, 'ready')).toEqual([{
    widget: 'quiz', lesson: 'a3-2-quiz', title: 'When two rules conflict, which one wins? (quiz)', mode: 'quiz',
    valid: true, problems: [], questions: 6, preset: 'git',
  }]);
  // Call 1 (git push origin main): first-match right, OpenCode wrong, Claude Code right.
  await guessAndReveal(w, 'first-match', 'deny');
  await guessAndReveal(w, 'opencode', 'deny');
  await guessAndReveal(w, 'claude-code', 'deny');
  // Call 2 (git status), after reversing the table: first-match right, OpenCode skipped,
  // Claude Code right.
  await w.locator('.pl-call-select').selectOption('1');
  await w.locator('.pl-reverse').click();
  await expect.poll(() => orderOf(w)).toEqual([2, 1]);
  await guessAndReveal(w, 'first-match', 'allow');
  await guessAndReveal(w, 'opencode', 'skip');
  await guessAndReveal(w, 'claude-code', 'allow');

  const answers = await events(page, 'answer');
  expect(answers.map((a) => [a.call.index, a.engine, a.guess, a.verdict, a.correct, a.attempt, a.scored])).toEqual([
    [1, 'first-match', 'deny', 'deny', true, 1, true],
    [1, 'opencode', 'deny', 'allow', false, 1, true],
    [1, 'claude-code', 'deny', 'deny', true, 1, true],
    [2, 'first-match', 'allow', 'allow', true, 1, true],
    [2, 'opencode', 'skip', 'allow', false, 1, true],
    [2, 'claude-code', 'allow', 'allow', true, 1, true],
  ]);
  expect(answers[0]).toEqual({
    widget: 'quiz', lesson: 'a3-2-quiz', preset: 'git', call: CALL1,
    engine: 'first-match', guess: 'deny', expected: 'deny', verdict: 'deny', correct: true, attempt: 1, scored: true,
  });
  // The author's answers were written for the lesson's order: after the reverse there is none.
  expect(answers[3].expected).toBeNull();
  expect(answers[3].call).toEqual(CALL2);
  const reorders = await events(page, 'reorder');
  expect(reorders).toEqual([{ widget: 'quiz', lesson: 'a3-2-quiz', preset: 'git', call: CALL2, change: 'reverse', from: null, to: null, flipped: [] }]);
  expect(await events(page, 'complete')).toEqual([{
    widget: 'quiz', lesson: 'a3-2-quiz', calls: 2, engines: 3,
    score: { raw: 4, max: 6, scaled: 4 / 6 }, passed: true, passing: 0.5,
  }]);
  // The host page's gradebook shows it.
  await expect(page.locator('#score')).toHaveAttribute('data-passed', 'true');
  await expect(page.locator('#score')).toContainText('4 of 6');
  await expect(page.locator('#statements tr[data-event="permlab:answer"]')).toHaveCount(6);

  // Try again: OpenCode on call 2 once more is a second attempt; it does not score, and the
  // quiz does not complete twice.
  await w.locator('.pl-try-again').click();
  await guessAndReveal(w, 'opencode', 'allow');
  const retry = (await events(page, 'answer')).at(-1);
  expect(retry).toMatchObject({ engine: 'opencode', call: CALL2, guess: 'allow', correct: true, attempt: 2, scored: false });
  const guesses = await events(page, 'guess');
  expect(guesses.at(-1)).toMatchObject({ engine: 'opencode', guess: 'allow', attempt: 2 });
  expect(await events(page, 'complete')).toHaveLength(1);
  expect(problems).toEqual([]);
});

test('state() kept by the host, restored on a fresh page, gives the same widget; reset() starts over', async ({ page, browser, problems }) => {
  const w = await progressPage(page);
  await guessAndReveal(w, 'first-match', 'deny');
  await w.locator('.pl-reverse').click();
  await expect.poll(() => orderOf(w)).toEqual([2, 1]);
  await guessAndReveal(w, 'opencode', 'deny');
  const state = await page.evaluate(async () => {
    const { mount } = await import('../permlab.js');
    return (await mount(document.getElementById('quiz'))).state();
  });
  expect(state).toMatchObject({ format: 'permlab-state', version: 1, widget: 'quiz' });
  expect(typeof state.state).toBe('string');

  // A fresh browser (no sessionStorage, no localStorage): the host gives the state back.
  const ctx = await browser.newContext();
  const fresh = await ctx.newPage();
  await record(fresh);
  await fresh.goto('./demo/progress.html');
  const w2 = fresh.locator('#quiz .pl-widget');
  await expect(w2.locator('tbody.pl-rules tr')).toHaveCount(2);
  expect(await orderOf(w2)).toEqual([1, 2]);
  await fresh.evaluate(async (s) => {
    const { mount } = await import('../permlab.js');
    (await mount(document.getElementById('quiz'))).restore(s);
  }, state);
  await expect.poll(() => orderOf(w2)).toEqual([2, 1]);
  await expect(panelOf(w2, 'opencode')).toHaveAttribute('data-verdict', 'deny');
  await expect(panelOf(w2, 'opencode').locator('.pl-guess-btn[data-guess="deny"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(w2.locator('.pl-log-entry')).toHaveCount(1);
  // The record came back too: first-match on call 1 was answered before (on the first order).
  await fresh.locator('#quiz .pl-try-again').click();
  await guessAndReveal(w2, 'first-match', 'allow');
  expect((await events(fresh, 'answer')).at(-1)).toMatchObject({ engine: 'first-match', attempt: 2, scored: false });

  // A damaged state is refused with a message, and the widget stays as it was.
  const refused = await fresh.evaluate(async (s) => {
    const { mount } = await import('../permlab.js');
    try {
      (await mount(document.getElementById('quiz'))).restore({ ...s, state: s.state.slice(0, -5) });
      return null;
    } catch (e) { return e.message; }
  }, state);
  expect(refused).toMatch(/damaged/);
  expect(await orderOf(w2)).toEqual([2, 1]);

  // reset(): the lesson's order, nothing revealed, and the host hears ready again.
  const readies = (await events(fresh, 'ready')).length;
  await fresh.locator('#reset').click();
  await expect.poll(() => orderOf(w2)).toEqual([1, 2]);
  await expect(w2.locator('.pl-engine[data-verdict]')).toHaveCount(0);
  await expect.poll(async () => (await events(fresh, 'ready')).length).toBe(readies + 1);
  await fresh.reload();
  await expect(fresh.locator('#quiz tbody.pl-rules tr')).toHaveCount(2);
  expect(await orderOf(fresh.locator('#quiz .pl-widget'))).toEqual([1, 2]);
  await ctx.close();
  expect(problems).toEqual([]);
});

test('permlab:ready names a broken lesson\'s problems; mount() with another lesson re-mounts the element', async ({ page, problems }) => {
  await record(page);
  await page.goto('./demo/en.html');
  const detail = await page.evaluate(async () => {
    const permlab = await import('../permlab.js');
    const el = document.createElement('div');
    el.id = 'x';
    el.setAttribute('data-lang', 'zh');
    document.querySelector('article').prepend(el);
    await permlab.mount(el, { title: 't', language: 'zh', mode: 'quiz', engines: ['opencod'], presets: [] });
    return null;
  });
  expect(detail).toBeNull();
  await expect.poll(async () => (await events(page, 'ready')).filter((r) => r.widget === 'x').length).toBe(1);
  const [ready] = (await events(page, 'ready')).filter((r) => r.widget === 'x');
  expect(ready).toMatchObject({ widget: 'x', lesson: 'x', mode: null, valid: false, questions: 0 });
  expect(ready.problems.join('\n')).toMatch(/engines\[0\]/);
  // In the widget's language (zh here).
  expect(ready.problems.join('\n')).toMatch(/求值器/);

  // The same element, another (valid) lesson: it mounts again with it.
  await page.evaluate(async () => {
    const permlab = await import('../permlab.js');
    await permlab.mount(document.getElementById('x'), {
      id: 'second', title: 'Second', language: 'en', mode: 'quiz', engines: ['opencode'],
      presets: [{ id: 'p', rules: [{ tool: 'bash', pattern: '*', action: 'ask' }], calls: ['bash: ls'] }],
    });
  });
  const x = page.locator('#x');
  await expect(x.locator('.pl-title')).toHaveText('Second');
  await expect(x.locator('.pl-widget')).toHaveCount(1);
  await expect(x.locator('.pl-lesson-problems')).toHaveCount(0);
  await expect.poll(async () => (await events(page, 'ready')).filter((r) => r.widget === 'x').length).toBe(2);
  expect((await events(page, 'ready')).filter((r) => r.widget === 'x')[1]).toMatchObject({ lesson: 'second', valid: true, questions: 1 });
  expect(problems).toEqual([]);
});
