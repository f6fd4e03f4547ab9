// The JS API for course pages: evaluate() through the loader, mount() with a lesson
// object, and the bubbling permlab:* events a learner's actions dispatch on the host element.
import { test, expect } from './fixtures.mjs';

const rows = (scope) => scope.locator('tbody.pl-rules tr');

const QUIZ = {
  title: { en: 'Events' },
  language: 'en',
  mode: 'quiz',
  engines: ['first-match', 'opencode'],
  presets: [{
    id: 'git',
    rules: [
      { tool: 'bash', pattern: 'git push *', action: 'deny' },
      { tool: 'bash', pattern: 'git *', action: 'allow' },
    ],
    calls: [{ tool: 'bash', input: 'git push origin main' }],
  }],
};

/** Mounts QUIZ (as an object) in a fresh element of the demo page; records every permlab:* event on document. */
async function mountQuiz(page) {
  await page.goto('./demo/en.html');
  await page.evaluate(async (lesson) => {
    window.__events = [];
    for (const name of ['guess', 'reveal', 'answer', 'reorder', 'complete']) {
      document.addEventListener(`permlab:${name}`, (e) => window.__events.push({ name: e.type, target: e.target.id, detail: e.detail }));
    }
    const permlab = await import('../permlab.js');
    const el = document.createElement('div');
    el.id = 'api';
    el.setAttribute('data-lang', 'en');
    document.querySelector('article').prepend(el);
    await permlab.mount(el, lesson);
  }, QUIZ);
  const host = page.locator('#api');
  await expect(rows(host)).toHaveCount(2);
  return host;
}

const events = (page, name) => page.evaluate((n) => window.__events.filter((e) => e.name === n), name);

test('evaluate() computes any engine\'s verdict from rules, a config or a call string', async ({ page, problems }) => {
  await page.goto('./demo/en.html');
  const out = await page.evaluate(async () => {
    const permlab = await import('../permlab.js');
    const rules = [
      { tool: 'bash', pattern: 'git push *', action: 'deny' },
      { tool: 'bash', pattern: 'git *', action: 'allow' },
    ];
    const call = { tool: 'bash', input: 'git push origin main' };
    const first = await permlab.evaluate({ engine: 'first-match', rules, call });
    const last = await permlab.evaluate({ engine: 'opencode', rules, call: 'bash: git push origin main' });
    const claude = await permlab.evaluate({
      engine: 'claude-code',
      config: { format: 'claude-code', text: JSON.stringify({ permissions: { allow: ['Bash(git *)'], deny: ['Bash(git push *)'] } }) },
      call,
      context: { mode: 'default' },
    });
    let error;
    try { await permlab.evaluate({ engine: 'nope', rules, call }); } catch (e) { error = String(e.message ?? e); }
    // Bad input is named by its field, never by our Rust types; an unknown lang is English.
    const fail = async (f) => { try { await f(); return 'no error'; } catch (e) { return `${e.name}: ${e.message}`; } };
    const badCall = await fail(() => permlab.evaluate({ engine: 'opencode', rules, call: 3 }));
    const notObject = await fail(() => permlab.evaluate('opencode'));
    const noElement = await fail(() => permlab.mount(null));
    const fr = await permlab.evaluate({ engine: 'first-match', rules, call, lang: 'fr' });
    return { first, last, claude, error, badCall, notObject, noElement, fr };
  });
  expect(out.badCall).toContain('call: write {tool, input} or "tool: input"');
  expect(out.badCall).not.toContain('CallIn');
  expect(out.notObject).toContain('expected an object {engine, rules | config, call');
  expect(out.noElement).toBe("TypeError: permlab.mount: expected an element, e.g. document.querySelector('#a3'); got null");
  expect(out.fr.reason).toBe(out.first.reason);
  expect(out.fr.reason).toMatch(/^matching the whole line as one string/);
  expect(out.first).toMatchObject({ decision: 'deny', rule: 1, matched: [1, 2] });
  expect(out.first.steps[0]).toMatchObject({ row: 1, stop: true });
  expect(typeof out.first.reason).toBe('string');
  expect(out.last).toMatchObject({ decision: 'allow', rule: 2, matched: [1, 2] });
  expect(out.claude.decision).toBe('deny');
  expect(out.error).toContain('first-match');
  expect(problems).toEqual([]);
});

// Where every event about the quiz's one question happens.
const PLACE = { widget: 'api', lesson: 'api', preset: 'git', call: { index: 1, tool: 'bash', input: 'git push origin main' } };

test('permlab:guess and permlab:reveal bubble from the host with the question, the attempt, verdict and correct', async ({ page, problems }) => {
  const host = await mountQuiz(page);
  const fm = host.locator('.pl-engine[data-engine="first-match"]');
  await fm.locator('.pl-guess-btn[data-guess="allow"]').click();
  await expect.poll(() => events(page, 'permlab:guess')).toEqual([
    { name: 'permlab:guess', target: 'api', detail: { ...PLACE, engine: 'first-match', guess: 'allow', attempt: 1 } },
  ]);
  await fm.locator('.pl-reveal').click();
  await expect.poll(() => events(page, 'permlab:reveal')).toEqual([
    { name: 'permlab:reveal', target: 'api', detail: { ...PLACE, engine: 'first-match', guess: 'allow', verdict: 'deny', correct: false, attempt: 1 } },
  ]);
  expect(problems).toEqual([]);
});

test('permlab:reorder says from, to and the engines that flipped', async ({ page, problems }) => {
  const host = await mountQuiz(page);
  await host.locator('tr[data-rule-id="1"] .pl-down').click();
  await expect.poll(() => events(page, 'permlab:reorder')).toEqual([
    { name: 'permlab:reorder', target: 'api', detail: { ...PLACE, change: 'move', from: 1, to: 2, flipped: ['first-match', 'opencode'] } },
  ]);
  await host.locator('.pl-reverse').click();
  await expect.poll(async () => (await events(page, 'permlab:reorder')).length).toBe(2);
  expect((await events(page, 'permlab:reorder'))[1].detail).toMatchObject({ change: 'reverse', from: null, to: null });
  expect(problems).toEqual([]);
});

test('permlab:complete fires once every engine of every call of a quiz is revealed, with a score', async ({ page, problems }) => {
  const host = await mountQuiz(page);
  for (const slug of ['first-match', 'opencode']) {
    const p = host.locator(`.pl-engine[data-engine="${slug}"]`);
    expect(await events(page, 'permlab:complete')).toEqual([]);
    await p.locator('.pl-skip').click();
    await p.locator('.pl-reveal').click();
    await expect(p).toHaveAttribute('data-verdict', /.+/);
  }
  await expect.poll(() => events(page, 'permlab:complete')).toEqual([
    { name: 'permlab:complete', target: 'api', detail: { widget: 'api', lesson: 'api', calls: 1, engines: 2, score: { raw: 0, max: 2, scaled: 0 }, passed: false, passing: 0.5 } },
  ]);
  expect(problems).toEqual([]);
});
