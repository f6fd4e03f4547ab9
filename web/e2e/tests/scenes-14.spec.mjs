// The timeline, replay, codex-approvals, comparison and opencode-lifecycle scenes against the
// release dist/ in Debian Chromium: the timeline's four blacklists (Pi's gate included), the
// replay with Pi's lanes and the disagreements counted among the engines that read the table,
// the new `codex-approvals` and `comparison` scenes, and the OpenCode lifecycle's answers where
// the call waits. zh and en; axe-core light and dark.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect as baseExpect, screenshotPath, artifacts, inEachView, tooWide } from './fixtures.mjs';

// States can take a while on a loaded 2-core machine: every wait is for a state.
const expect = baseExpect.configure({ timeout: 20_000 });

const repo = resolve(artifacts, '..');
const scene = (page, slug) => page.locator(`section.pl-scene[data-scene="${slug}"]`).first();

/// The scenes page with every scene mounted at once (in `lang`).
async function openScenes(page, lang = 'zh') {
  let path = './demo/scenes.html';
  if (lang === 'en') {
    const html = readFileSync(resolve(repo, 'dist/demo/scenes.html'), 'utf8').replaceAll('data-lang="zh"', 'data-lang="en"');
    await page.route('**/demo/scenes-en-14.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
    path = './demo/scenes-en-14.html';
  }
  await page.goto(path);
  await page.evaluate(async () => {
    const m = await import(new URL('../permlab.js', location.href).href);
    await Promise.all([...document.querySelectorAll('[data-permlab][data-scene]')].map((el) => m.mount(el)));
  });
  await expect(page.locator('section.pl-scene h2')).toHaveCount(await page.locator('[data-permlab][data-scene]').count());
}

async function open(page, slug, lang = 'zh') {
  await openScenes(page, lang);
  const s = scene(page, slug);
  await expect(s).toHaveAttribute('lang', lang === 'zh' ? 'zh-CN' : 'en');
  await s.locator('h2').scrollIntoViewIfNeeded();
  return s;
}

async function axe(page, slug) {
  const results = await new AxeBuilder({ page }).include(`section.pl-scene[data-scene="${slug}"]`).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target}`);
}

const laneCounts = (s, engine, mode) => s.locator(`tr[data-engine="${engine}"][data-mode="${mode}"] td[data-decision]`)
  .evaluateAll((tds) => tds.map((td) => Number(td.dataset.count)));

// ---- timeline: four blacklists ----------------------------------------------------------------

for (const lang of ['zh', 'en']) {
  test(`timeline (${lang}): Pi's gate is the third column; the sandbox stage counts four blacklists, no "not ported"`, async ({ page, problems }) => {
    const s = await open(page, 'timeline', lang);
    await s.locator('.pl-tl-stage[data-stage="blacklist"]').click();
    await expect(s.locator('tr[data-figure="pi-missed"] .pl-computed')).toHaveText('3/6');
    await expect(s.locator('tr[data-figure="pi-wrongly-blocked"] .pl-computed')).toHaveText('0/4');
    const dangerous = s.locator('table[data-list="dangerous"]');
    await expect(dangerous.locator('td[data-gate="pi"][data-mark="missed"]')).toHaveCount(3);
    await expect(dangerous.locator('tr[data-command="sudo ls"] td[data-gate="pi"]')).toHaveAttribute('data-blocked', 'true');
    await expect(dangerous.locator('tr[data-command="sudo ls"] td[data-gate="pi"] code')).toHaveText('\\bsudo\\b');
    await expect(s.locator('table[data-list="everyday"] tr[data-command="cat sudoku_solver.py"] td[data-gate="pi"]')).toHaveAttribute('data-blocked', 'false');
    // The learner's own command through the three gates.
    await s.locator('.pl-tl-command input').fill('CHMOD -R 777 /srv');
    await expect(s.locator('.pl-tl-try-list li[data-gate="pi"]')).toHaveAttribute('data-blocked', 'true');
    await expect(s.locator('.pl-tl-try-list li[data-gate="lcc"]')).toHaveAttribute('data-blocked', 'false');
    await s.locator('.pl-tl-stage[data-stage="sandbox"]').click();
    await expect(s.locator('tr[data-figure="rmtree-passes"] .pl-computed')).toHaveText('4/4');
    await expect(s.locator('tr[data-figure="rmtree-passes"]')).toHaveAttribute('data-differs', 'false');
    await expect(s.locator('.pl-tl-four-list li')).toHaveCount(4);
    await expect(s.locator('.pl-tl-four-list li[data-blocked="false"]')).toHaveCount(4);
    await expect(s).not.toContainText(lang === 'zh' ? '没有移植' : 'not ported');
    expect(problems).toEqual([]);
  });
}

// ---- replay: Pi's lanes; disagreements among the table readers ----------------------------------

for (const lang of ['zh', 'en']) {
  test(`replay (${lang}): Pi's gate with and without a UI; Codex, CoreCoder and Pi apart from the disagreement count`, async ({ page, problems }) => {
    const s = await open(page, 'replay', lang);
    await expect(s.locator('.pl-rp-summary')).toHaveAttribute('data-calls', '10');
    expect(await laneCounts(s, 'pi-gate', 'ui')).toEqual([9, 1, 0, 0]);
    expect(await laneCounts(s, 'pi-gate', 'no-ui')).toEqual([9, 0, 1, 0]);
    const count = s.locator('.pl-rp-disagree-count');
    const n = Number(await count.getAttribute('data-count'));
    expect(n).toBeLessThan(10);
    await expect(count).toContainText(lang === 'zh' ? `${n} / 10 次调用上,读这张表的三个求值器` : `On ${n} of 10 calls the three engines that read this table`);
    await expect(s.locator('.pl-rp-disagree-list > li')).toHaveCount(n);
    await expect(s.locator('.pl-rp-disagree-list li[data-engine="codex"]')).toHaveCount(0);
    await expect(s.locator('.pl-rp-apart li[data-engine="codex"]')).toHaveAttribute('data-ask', '10');
    await expect(s.locator('.pl-rp-apart li[data-engine="codex"]')).toContainText(lang === 'zh' ? 'Codex 在 10 次调用里问了 10 次' : 'Codex asks on 10 of 10 calls');
    await expect(s.locator('.pl-rp-apart li[data-engine="pi-gate"]')).toHaveAttribute('data-caught', '1');
    expect(problems).toEqual([]);
  });
}

// ---- codex-approvals ----------------------------------------------------------------------------

const row = (s, call) => s.locator(`.pl-ca-calls tr[data-call="${call}"]`);

test('codex-approvals (zh): guess, then reveal; the same calls change with the setting; Granular false rejects with no prompt', async ({ page, problems }) => {
  const s = await open(page, 'codex-approvals');
  await expect(s.locator('.pl-ca-pin')).toContainText('Codex 0.171.0');
  await expect(s.locator('.pl-ca-config')).toContainText('sandbox_mode    = "workspace-write"');
  await expect(s.locator('.pl-ca-config')).toContainText('approval_policy = "on-request"');
  // Nothing revealed before a guess.
  await expect(s.locator('tr[data-revealed="true"]')).toHaveCount(0);
  await expect(s.locator('.pl-ca-outcome[data-outcome]')).toHaveCount(0);
  await expect(row(s, 'network').locator('.pl-ca-outcome')).toHaveText('先猜,再看结果');
  // workspace-write + on-request: the build runs, the push is blocked by the sandbox, nobody asked.
  await row(s, 'build').locator('.pl-ca-guess[data-guess="allow"]').click();
  await expect(row(s, 'build').locator('.pl-ca-outcome')).toHaveAttribute('data-outcome', 'run');
  await expect(row(s, 'build').locator('.pl-ca-mark')).toHaveText('✓ 猜对了');
  await row(s, 'network').locator('.pl-ca-guess[data-guess="ask"]').click();
  await expect(row(s, 'network').locator('.pl-ca-outcome')).toHaveAttribute('data-outcome', 'sandbox-denied');
  await expect(row(s, 'network').locator('.pl-ca-mark')).toHaveText('✗ 猜错了(你猜的是问人)');
  await row(s, 'dangerous').locator('.pl-ca-guess[data-guess="ask"]').click();
  await expect(row(s, 'dangerous').locator('.pl-ca-outcome')).toHaveAttribute('data-outcome', 'ask');
  await expect(s.locator('.pl-ca-progress')).toHaveText('这个设置下已揭示 3 / 8 个调用');
  // A new sandbox asks again; danger-full-access runs the push, the forbidden rule still rejects.
  await s.locator('.pl-ca-sandbox button[data-arg="danger-full-access"]').click();
  await expect(s.locator('tr[data-revealed="true"]')).toHaveCount(0);
  await s.locator('.pl-ca-show-all').click();
  await expect(row(s, 'network').locator('.pl-ca-outcome')).toHaveAttribute('data-outcome', 'run');
  await expect(row(s, 'forbidden-rule').locator('.pl-ca-outcome')).toHaveAttribute('data-outcome', 'reject');
  // read-only: the build is blocked by the sandbox.
  await s.locator('.pl-ca-sandbox button[data-arg="read-only"]').click();
  await row(s, 'build').locator('.pl-ca-show').click();
  await expect(row(s, 'build').locator('.pl-ca-outcome')).toHaveAttribute('data-outcome', 'sandbox-denied');
  // Misconception 3: Granular, sandbox_approval = false. The dangerous command is rejected, no prompt.
  await s.locator('.pl-ca-misconception').click();
  await expect(s.locator('.pl-ca-policy button[data-arg="granular"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(s.locator('.pl-ca-granular')).toBeVisible();
  await expect(s.locator('.pl-ca-config')).toContainText('sandbox_approval    = false');
  await row(s, 'dangerous').locator('.pl-ca-guess[data-guess="ask"]').click();
  const d = row(s, 'dangerous').locator('.pl-ca-outcome');
  await expect(d).toHaveAttribute('data-outcome', 'reject');
  await expect(d.locator('.pl-ca-mark')).toHaveText('✗ 猜错了(你猜的是问人)');
  await expect(d.locator('.pl-ca-surprise')).toContainText('sandbox_approval = false 的意思是「自动拒绝」,不是「遇到时问我」');
  await expect(d.locator('.pl-ca-reason code')).toHaveText('approval required by policy, but AskForApproval::Granular.sandbox_approval is false');
  // The prompt rule still asks — until `rules` is false too.
  await row(s, 'prompt-rule').locator('.pl-ca-show').click();
  await expect(row(s, 'prompt-rule').locator('.pl-ca-outcome')).not.toHaveAttribute('data-outcome', 'reject');
  await s.locator('.pl-ca-category').filter({ hasText: /^rules$/ }).locator('input').uncheck();
  await expect(s.locator('tr[data-revealed="true"]')).toHaveCount(0);
  await row(s, 'prompt-rule').locator('.pl-ca-guess[data-guess="deny"]').click();
  await expect(row(s, 'prompt-rule').locator('.pl-ca-surprise')).toHaveAttribute('data-category', 'rules');
  await expect(row(s, 'prompt-rule').locator('.pl-ca-mark')).toHaveText('✓ 猜对了');
  expect(problems).toEqual([]);
});

test('codex-approvals (en): keyboard only, the Granular surprise in English', async ({ page, problems }) => {
  const s = await open(page, 'codex-approvals', 'en');
  await expect(s.locator('h2')).toHaveText('Codex: draw the sandbox first, ask only at its edge');
  await s.locator('.pl-ca-policy button[data-arg="granular"]').focus();
  await page.keyboard.press('Enter');
  await expect(s.locator('.pl-ca-granular')).toBeVisible();
  const box = s.locator('.pl-ca-category').filter({ hasText: /^sandbox_approval$/ }).locator('input');
  await box.focus();
  await page.keyboard.press('Space');
  await expect(box).not.toBeChecked();
  const guess = row(s, 'escalate').locator('.pl-ca-guess[data-guess="ask"]');
  await guess.focus();
  await page.keyboard.press('Enter');
  const e = row(s, 'escalate').locator('.pl-ca-outcome');
  await expect(e).toHaveAttribute('data-outcome', 'reject');
  await expect(e.locator('.pl-ca-mark')).toHaveText('✗ Wrong (you guessed ask)');
  await expect(e.locator('.pl-ca-note')).toContainText('accepts a request to leave the sandbox only under on-request');
  await row(s, 'dangerous').locator('.pl-ca-guess[data-guess="deny"]').click();
  await expect(row(s, 'dangerous').locator('.pl-ca-surprise')).toContainText('sandbox_approval = false means "reject automatically", not "ask me when it comes up"');
  await expect(s.locator('.pl-ca-progress')).toHaveText('2 of 8 calls revealed under this setting');
  expect(problems).toEqual([]);
});

// ---- comparison -------------------------------------------------------------------------------

for (const lang of ['zh', 'en']) {
  test(`comparison (${lang}): 21 cells, each checked; a case runs through the engine when its button is pressed`, async ({ page, problems }) => {
    const s = await open(page, 'comparison', lang);
    await expect(s.locator('.pl-cmp-cell')).toHaveCount(21);
    await expect(s.locator('.pl-cmp-overview tbody td')).toHaveCount(21);
    await expect(s.locator('.pl-cmp-cell[data-status="wrong"]')).toHaveCount(6);
    await expect(s.locator('.pl-cmp-result')).toHaveCount(0);
    // OpenCode's "configured DENY comes first": the seed's own five rules allow the call by #4 on
    // the classic runtime; only the v2 runtime checks configured rules first (as the lifecycle
    // scene says): partly.
    const deny = s.locator('.pl-cmp-cell[data-dimension="deny-override"][data-product="opencode"]');
    await expect(deny).toHaveAttribute('data-status', 'partly');
    await expect(deny).toContainText(lang === 'zh' ? '新运行时 v2' : 'v2 runtime');
    await expect(deny.locator('q.pl-cmp-claim')).toHaveText(lang === 'zh' ? 'configured DENY 优先' : 'a configured DENY comes first');
    const first = deny.locator('.pl-cmp-demo[data-demo="0"]');
    await expect(first).toContainText('bash: rm -rf /tmp/cache');
    await first.locator('.pl-cmp-run').click();
    await expect(first.locator('.pl-cmp-result')).toHaveAttribute('data-matches', 'true');
    // The whole call: the bash tool first asks about the outside directory /tmp/cache (`* * ask`).
    await expect(first.locator('.pl-cmp-result [data-verdict]')).toHaveAttribute('data-verdict', 'ask');
    // Claude Code's "default DENY": the default mode asks; dontAsk denies.
    const cc = s.locator('.pl-cmp-cell[data-dimension="deny-override"][data-product="claude-code"]');
    for (const k of ['0', '1']) await cc.locator(`.pl-cmp-demo[data-demo="${k}"] .pl-cmp-run`).click();
    await expect(cc.locator('.pl-cmp-demo[data-demo="0"] .pl-cmp-result [data-verdict]')).toHaveAttribute('data-verdict', 'ask');
    await expect(cc.locator('.pl-cmp-demo[data-demo="1"] .pl-cmp-result [data-verdict]')).toHaveAttribute('data-verdict', 'deny');
    // A Codex approvals case.
    const cx = s.locator('.pl-cmp-cell[data-dimension="philosophy"][data-product="codex"]');
    await cx.locator('.pl-cmp-demo[data-demo="1"] .pl-cmp-run').click();
    await expect(cx.locator('.pl-cmp-demo[data-demo="1"] .pl-cmp-result')).toHaveAttribute('data-matches', 'true');
    await expect(s.locator('.pl-cmp-progress')).toHaveText(lang === 'zh' ? /^已运行 4 \/ \d+ 个例子$/ : /^4 of \d+ cases run$/);
    // Every case run gives what the cell says (all of them are checked natively, comparison.rs).
    await expect(s.locator('.pl-cmp-result[data-matches="true"]')).toHaveCount(4);
    expect(problems).toEqual([]);
  });
}

// ---- opencode-lifecycle: the answer where the call waits (12.13) -------------------------------

for (const lang of ['zh', 'en']) {
  test(`opencode-lifecycle (${lang}): the answers sit in the waiting step; later steps and the result point there`, async ({ page, problems }) => {
    const s = await open(page, 'opencode-lifecycle', lang);
    const dir = s.locator('li.pl-flow-stage[data-stage="external-directory"]');
    await expect(dir).toHaveAttribute('data-status', 'waiting');
    await expect(dir.locator('.pl-lc-answer')).toHaveCount(4);
    await expect(s.locator('.pl-lc-answer')).toHaveCount(4);
    // The result says where to answer; its button steps there and focuses the first answer.
    const goto = s.locator('.pl-lc-result .pl-lc-goto');
    await expect(s.locator('.pl-lc-result .pl-lc-answer-at')).toContainText(lang === 'zh' ? '回答按钮在「② 目录权限(external_directory)」这一步' : 'the answer buttons are at "② Directory permission (external_directory)"');
    await goto.click();
    await expect(dir).toHaveAttribute('aria-current', 'step');
    await expect(dir.locator('.pl-lc-answer').first()).toBeFocused();
    await expect(dir.locator('.pl-lc-here')).toBeVisible();
    // The call waits here, and so does the stepper: no later step is shown, none says "not
    // reached" over and over; "Next" and "Last" are at their end.
    const next = s.locator('.pl-scene-step[data-arg="1"]');
    await expect(next).toHaveAttribute('aria-disabled', 'true');
    await expect(s.locator('.pl-scene-step[data-arg="2"]')).toHaveAttribute('aria-disabled', 'true');
    await next.focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('End');
    await expect(dir).toHaveAttribute('aria-current', 'step');
    await expect(s.locator('li.pl-flow-stage[data-status="not-reached"]:visible')).toHaveCount(0);
    await expect(s.locator('.pl-lc-goto')).toHaveCount(1);
    await dir.locator('.pl-lc-answer[data-answer="once"]').click();
    await expect(s.locator('.pl-lc-result')).toHaveAttribute('data-end', 'completed');
    await expect(s.locator('.pl-lc-goto')).toHaveCount(0);
    // Answered, the walk goes on to the end.
    await expect(next).toHaveAttribute('aria-disabled', 'false');
    await next.click();
    await expect(s.locator('li.pl-flow-stage[data-stage="command"]')).toHaveAttribute('aria-current', 'step');
    await expect(s.locator('li.pl-flow-stage[data-stage="execution"]')).toHaveAttribute('data-status', 'pass');
    // What "Always" would save here, beside the lesson's claim about it.
    await expect(s.locator('li[data-claim="saved-pattern-rm-rf-star"] .pl-lc-always code')).toHaveText('bash rm *');
    expect(problems).toEqual([]);
  });
}

// ---- axe and screenshots ------------------------------------------------------------------------

for (const scheme of ['light', 'dark']) {
  test(`timeline, replay, codex-approvals, comparison, opencode-lifecycle: axe-core, no violations (${scheme})`, async ({ page, problems }) => {
    test.setTimeout(240_000);
    await page.emulateMedia({ colorScheme: scheme });
    await openScenes(page);
    const ca = scene(page, 'codex-approvals');
    await ca.locator('.pl-ca-misconception').click();
    await row(ca, 'dangerous').locator('.pl-ca-guess[data-guess="ask"]').click();
    await row(ca, 'build').locator('.pl-ca-guess[data-guess="allow"]').click();
    expect(await axe(page, 'codex-approvals')).toEqual([]);
    const cmp = scene(page, 'comparison');
    await cmp.locator('.pl-cmp-run').first().click();
    expect(await axe(page, 'comparison')).toEqual([]);
    const tl = scene(page, 'timeline');
    await tl.locator('.pl-tl-stage[data-stage="sandbox"]').click();
    expect(await axe(page, 'timeline')).toEqual([]);
    expect(await axe(page, 'replay')).toEqual([]);
    await scene(page, 'opencode-lifecycle').locator('.pl-lc-result .pl-lc-goto').click();
    expect(await axe(page, 'opencode-lifecycle')).toEqual([]);
    expect(problems).toEqual([]);
  });
}

test('timeline, replay, codex-approvals, comparison, opencode-lifecycle: screenshots at 1280 px (light, dark) and 360 px; nothing wider than a phone', async ({ browser }) => {
  test.setTimeout(240_000);
  await inEachView(browser, async (page, name) => {
    await openScenes(page);
    const ca = scene(page, 'codex-approvals');
    await ca.locator('.pl-ca-misconception').click();
    await row(ca, 'dangerous').locator('.pl-ca-guess[data-guess="ask"]').click();
    await row(ca, 'network').locator('.pl-ca-show').click();
    const cmp = scene(page, 'comparison');
    await cmp.locator('.pl-cmp-cell[data-dimension="deny-override"] .pl-cmp-run').first().click();
    await scene(page, 'timeline').locator('.pl-tl-stage[data-stage="blacklist"]').click();
    await scene(page, 'opencode-lifecycle').locator('.pl-lc-result .pl-lc-goto').click();
    for (const slug of ['codex-approvals', 'comparison', 'timeline', 'replay', 'opencode-lifecycle']) {
      const s = scene(page, slug);
      if (name === '-phone') expect(await tooWide(s), `${slug}: elements wider than the 360 px viewport`).toEqual([]);
      await s.screenshot({ path: screenshotPath(`scene14-${slug}${name}`) });
    }
  });
});

test('codex-approvals: the columns keep their widths when every call is revealed (the commands are never squeezed)', async ({ page, problems }) => {
  const s = await open(page, 'codex-approvals');
  const widths = () => s.locator('.pl-ca-calls thead th').evaluateAll((ths) => ths.map((th) => Math.round(th.getBoundingClientRect().width)));
  const before = await widths();
  await s.locator('.pl-ca-show-all').click();
  await expect(s.locator('tr[data-revealed="true"]')).toHaveCount(8);
  expect(await widths()).toEqual(before);
  // No command breaks inside a word: each line of a command cell is a whole word or more.
  const code = row(s, 'forbidden-rule').locator('th code');
  const lines = await code.evaluate((el) => {
    const r = document.createRange();
    r.selectNodeContents(el);
    return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size;
  });
  expect(lines).toBeLessThanOrEqual(3);
  expect(problems).toEqual([]);
});
