// The design-evaluator scene (seed 001's ticket agent), against the release
// dist/ in Debian Chromium: the learner composes two different evaluators and sees, call by
// call, the verdicts and the closest real harness change; nothing is shown before a reveal.
// Every figure pinned here is the core's (see permlab_core::design's tests and the scene's).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect as baseExpect, screenshotPath, artifacts, inEachView, tooWide } from './fixtures.mjs';

// A loaded 2-core machine: every wait is for a state, with room to arrive.
const expect = baseExpect.configure({ timeout: 20_000 });
const repo = resolve(artifacts, '..');
const SLUG = 'design-evaluator';

/// The scenes page (zh, or every placeholder in en), with only this scene mounted at once.
async function open(page, lang = 'zh') {
  let path = './demo/scenes.html';
  if (lang === 'en') {
    const html = readFileSync(resolve(repo, 'dist/demo/scenes.html'), 'utf8').replaceAll('data-lang="zh"', 'data-lang="en"');
    await page.route('**/demo/scenes-en.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    path = './demo/scenes-en.html';
  }
  await page.goto(path);
  await page.evaluate(async (id) => {
    const m = await import(new URL('../permlab.js', location.href).href);
    await m.mount(document.getElementById(id));
  }, SLUG);
  const s = page.locator(`section.pl-scene[data-scene="${SLUG}"]`);
  await expect(s.locator('h2')).toBeVisible();
  await expect(s).toHaveAttribute('lang', lang === 'en' ? 'en' : 'zh-CN');
  await s.scrollIntoViewIfNeeded();
  return s;
}

const call = (s, i) => s.locator(`.pl-dz-call[data-call="${i}"]`);

/// Reveals every call and returns the design's verdicts, in call order.
async function revealAll(s) {
  await s.locator('.pl-dz-reveal-all').click();
  await expect(s.locator('.pl-dz-call[data-revealed="false"]')).toHaveCount(0);
  await expect(s.locator('.pl-dz-summary')).toHaveAttribute('data-ready', 'true');
  return s.locator('.pl-dz-verdict').evaluateAll((ps) => ps.map((p) => p.dataset.verdict));
}

/// After a change of design or session: every call is covered again, nothing given away.
async function covered(s) {
  await expect(s.locator('.pl-dz-call[data-revealed="true"]')).toHaveCount(0);
  await expect(s.locator('.pl-dz-verdict')).toHaveCount(0);
  await expect(s.locator('.pl-dz-closest')).toHaveCount(0);
  await expect(s.locator('.pl-dz-summary')).toHaveAttribute('data-ready', 'false');
  await expect(s.locator('[data-closest]')).toHaveCount(0);
}

test('design (zh): the seed decide() on the ticket agent, then unattended; naive vs bottom-up on miniagent', async ({ page, problems }) => {
  test.setTimeout(120_000);
  const s = await open(page);
  await expect(s.locator('h2')).toHaveText('设计你自己的求值器:客服工单 Agent 的 decide()');
  await expect(s.locator('.pl-dz-call')).toHaveCount(6);
  await covered(s);
  await expect(s.locator('.pl-dz-presets button[data-arg="seed"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(s.locator('.pl-dz-likeness')).toHaveAttribute('data-engine', 'claude-code');
  await expect(s.locator('.pl-dz-code')).toContainText('if verdict == "ask" and session.unattended:');
  await expect(s.locator('.pl-dz-rules[data-bench="ticket"] tr[data-row="5"]')).toContainText('delete_ticket');

  // Guess the seed's own example: refund asks (② of decide()); every engine asks, Claude Code named.
  const refund = call(s, 3);
  await expect(refund).toContainText('refund(order=A1, amount=300)');
  await refund.locator('.pl-dz-guess[data-arg="ask"]').click();
  await expect(refund).toHaveAttribute('data-revealed', 'true');
  await expect(refund.locator('.pl-dz-judged')).toHaveAttribute('data-correct', 'true');
  await expect(refund.locator('.pl-dz-verdict')).toHaveAttribute('data-verdict', 'ask');
  await expect(refund.locator('.pl-dz-verdict')).toContainText('课文 decide() 的第 ② 步');
  await expect(refund.locator('.pl-dz-closest')).toHaveAttribute('data-engine', 'claude-code');
  // The guess buttons stay (focus stays on the one pressed), now answered.
  await expect(refund.locator('.pl-dz-guess[data-arg="ask"]')).toBeFocused();
  await expect(refund.locator('.pl-dz-guess[data-arg="ask"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(s.locator('.pl-scene-live')).toContainText('调用 4:你的设计 问人;最像: Claude Code');
  // Other calls are still covered.
  await expect(call(s, 0).locator('.pl-dz-verdict')).toHaveCount(0);

  expect(await revealAll(s)).toEqual(['allow', 'allow', 'ask', 'ask', 'deny', 'ask']);
  await expect(s.locator('.pl-dz-summary-line')).toHaveAttribute('data-closest', 'first-match');
  // Every engine tied at the top is named; that the design is built like Claude Code yet agrees
  // most with first-match and OpenCode is said right under the headline, before the counts.
  await expect(s.locator('.pl-dz-summary-line')).toHaveText('6 个调用里,你的设计最像 first-match、OpenCode(6/6 一致)');
  await expect(s.locator('.pl-dz-summary-line + .pl-dz-structure')).toContainText('按结构,你的设计用 Claude Code 的顺序读表');
  await expect(s.locator('.pl-dz-structure + .pl-dz-note')).toContainText('Claude Code 的规则只能写它自己的工具');
  await expect(call(s, 0).locator('.pl-dz-engines li[data-engine="claude-code"]')).toHaveAttribute('data-agrees', 'false');

  // Evaluator #2: the same design in an unattended session — ask_or_deny turns asks into denies.
  await s.locator('.pl-dz-night input').check();
  await covered(s);
  await expect(s.locator('.pl-dz-modes')).toContainText('Claude Code dontAsk');
  expect(await revealAll(s)).toEqual(['allow', 'allow', 'deny', 'deny', 'deny', 'deny']);
  await expect(refund.locator('.pl-dz-verdict')).toHaveAttribute('data-changed', 'true');
  await expect(refund.locator('.pl-dz-was')).toHaveText('上一个设计:问人');
  await expect(refund.locator('.pl-dz-verdict')).toContainText('无人值守,没人可问 → 拒绝');
  await expect(refund.locator('.pl-dz-engines li[data-engine="claude-code"]')).toContainText('Claude Code (dontAsk)');
  await expect(call(s, 0).locator('.pl-dz-verdict')).toHaveAttribute('data-changed', 'false');

  // The miniagent table: the naive design, then bottom-up; the test command flips.
  await s.locator('.pl-dz-night input').uncheck();
  await s.locator('.pl-dz-bench button[data-arg="miniagent"]').click();
  await expect(s.locator('.pl-dz-rules[data-bench="miniagent"] tbody tr')).toHaveCount(10);
  await s.locator('.pl-dz-presets button[data-arg="naive"]').click();
  await covered(s);
  expect(await revealAll(s)).toEqual(['deny', 'deny', 'deny', 'allow', 'allow', 'allow']);
  await expect(call(s, 0).locator('.pl-dz-closest')).toHaveAttribute('data-engine', 'first-match');
  await expect(call(s, 0).locator('.pl-dz-verdict')).toContainText('#8 bash * 拒绝');
  await expect(s.locator('.pl-dz-summary-line')).toHaveAttribute('data-closest', 'first-match');

  await s.locator('.pl-dz-order button[data-arg="bottom-up"]').click();
  await expect(s.locator('.pl-dz-likeness')).toHaveAttribute('data-engine', 'opencode');
  await expect(s.locator('.pl-dz-presets button[aria-pressed="true"]')).toHaveCount(0);
  await covered(s);
  const test0 = call(s, 0);
  await test0.locator('.pl-dz-guess[data-arg="deny"]').click();
  await expect(test0.locator('.pl-dz-judged')).toHaveAttribute('data-correct', 'false');
  await expect(test0.locator('.pl-dz-verdict')).toHaveAttribute('data-verdict', 'allow');
  await expect(test0.locator('.pl-dz-verdict')).toHaveAttribute('data-changed', 'true');
  await expect(test0.locator('.pl-dz-was')).toHaveText('上一个设计:拒绝');
  await expect(test0.locator('.pl-dz-closest')).toHaveAttribute('data-engine', 'opencode');
  await expect(test0.locator('.pl-dz-engines li[data-engine="first-match"]')).toHaveAttribute('data-verdict', 'deny');
  expect(await revealAll(s)).toEqual(['allow', 'deny', 'deny', 'deny', 'allow', 'allow']);
  await expect(s.locator('.pl-dz-summary-line')).toHaveAttribute('data-closest', 'opencode');
  // 5 of 6: on `rm -rf /` OpenCode's bash tool asks about the outside directory `/*` first.
  await expect(s.locator('.pl-dz-agree tr[data-engine="opencode"]')).toHaveAttribute('data-agree', '5');
  await expect(s.locator('.pl-dz-code')).toContainText('rule = hits[-1] if hits else None');
  expect(problems).toEqual([]);
});

test('design (en): a fallback deny nobody shares, then grouped with the mode stage in a read-only session', async ({ page, problems }) => {
  test.setTimeout(120_000);
  const s = await open(page, 'en');
  await expect(s.locator('h2')).toHaveText("Design your own evaluator: the ticket agent's decide()");
  await covered(s);
  // Evaluator #1: the seed's design with fallback deny: escalate_ticket (on no list) is denied.
  await s.locator('.pl-dz-fallback button[data-arg="deny"]').click();
  await expect(s.locator('.pl-dz-likeness')).toContainText('deny when nothing matches (the real engines ask)');
  const escalate = call(s, 5);
  await expect(escalate).toContainText('on no list');
  await escalate.locator('.pl-dz-skip').click();
  await expect(escalate.locator('.pl-dz-judged')).toHaveAttribute('data-correct', 'skipped');
  await expect(escalate.locator('.pl-dz-verdict')).toHaveAttribute('data-verdict', 'deny');
  await expect(escalate.locator('.pl-dz-closest')).toHaveAttribute('data-engine', 'none');
  await expect(escalate.locator('.pl-dz-closest')).toHaveText('none of the five real engines decides this way');
  expect(await revealAll(s)).toEqual(['allow', 'allow', 'ask', 'ask', 'deny', 'deny']);
  await expect(s.locator('.pl-dz-summary-line')).toHaveText('Over the 6 calls your design behaves most like first-match, OpenCode (5/6 agree)');
  await expect(s.locator('.pl-dz-note')).toContainText('Why Claude Code and Codex ask for every ticket call');

  // Evaluator #2: on miniagent, back to the seed's design, in a read-only session: ③ asks the edit.
  await s.locator('.pl-dz-bench button[data-arg="miniagent"]').click();
  await s.locator('.pl-dz-presets button[data-arg="seed"]').click();
  await s.locator('.pl-dz-readonly input').check();
  await covered(s);
  await expect(s.locator('.pl-dz-modes')).toContainText('Claude Code plan, CoreCoder /plan');
  const edit = call(s, 4);
  await expect(edit).toContainText('edit_file: dateparse.py');
  await edit.locator('.pl-dz-guess[data-arg="allow"]').click();
  await expect(edit.locator('.pl-dz-judged')).toHaveAttribute('data-correct', 'false');
  await expect(edit.locator('.pl-dz-verdict')).toHaveAttribute('data-verdict', 'ask');
  await expect(edit.locator('.pl-dz-verdict')).toContainText('#4 edit_file * allow → ③ a write in a read-only session → ask');
  await expect(edit.locator('.pl-dz-closest')).toHaveAttribute('data-engine', 'claude-code');
  await expect(edit.locator('.pl-dz-engines li[data-engine="opencode"]')).toHaveAttribute('data-verdict', 'allow');
  await expect(s.locator('.pl-scene-live')).toContainText('Call 5: your design ask; Behaves like: Claude Code');
  expect(await revealAll(s)).toEqual(['deny', 'deny', 'deny', 'deny', 'ask', 'allow']);
  // Overall, CoreCoder's /plan (refuse what is not read-only) is nearest: 5 of 6; Claude Code
  // removes the bash tool (a bare deny) instead of denying the call.
  await expect(s.locator('.pl-dz-summary-line')).toHaveAttribute('data-closest', 'corecoder');
  await expect(s.locator('.pl-dz-summary-line')).toHaveText('Over the 6 calls your design behaves most like CoreCoder (5/6 agree)');
  await expect(call(s, 0).locator('.pl-dz-engines li[data-engine="claude-code"]')).toHaveAttribute('data-verdict', 'unavailable');
  expect(problems).toEqual([]);
});

for (const scheme of ['light', 'dark']) {
  test(`design: axe-core, no violations, covered and revealed (${scheme})`, async ({ page, problems }) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: scheme });
    const s = await open(page);
    const axe = async () => (await new AxeBuilder({ page }).include(`section.pl-scene[data-scene="${SLUG}"]`).analyze())
      .violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target}`);
    expect(await axe()).toEqual([]);
    await call(s, 3).locator('.pl-dz-guess[data-arg="deny"]').click();
    await revealAll(s);
    expect(await axe()).toEqual([]);
    expect(problems).toEqual([]);
  });
}

test('design: screenshots at 1280 px (light, dark) and 360 px; nothing wider than a phone', async ({ browser }) => {
  test.setTimeout(150_000);
  await inEachView(browser, async (page, name) => {
    const s = await open(page);
    await call(s, 3).locator('.pl-dz-guess[data-arg="ask"]').click();
    await s.locator('.pl-dz-night input').check();
    await call(s, 3).locator('.pl-dz-guess[data-arg="ask"]').click();
    await revealAll(s);
    if (name === '-phone') {
      expect(await tooWide(s), 'elements wider than the 360 px viewport').toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
    }
    await s.screenshot({ path: screenshotPath(`scene-${SLUG}${name}`) });
  });
});
