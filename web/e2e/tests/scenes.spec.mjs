// The scenes timeline, merge, replay, claude-flow and opencode-lifecycle, against the
// release dist/ in Debian Chromium. Each scene is a `section.pl-scene[data-scene=<slug>]`; the
// figures pinned here are the core's (see the scenes' unit tests and the seeds).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { test, expect as baseExpect, screenshotPath, artifacts, inEachView, tooWide } from './fixtures.mjs';

// On a loaded 2-core machine a state can take longer than the default 5 s to arrive: every
// wait here is for a state (an element, an attribute, a text), with room to arrive.
const expect = baseExpect.configure({ timeout: 20_000 });

const repo = resolve(artifacts, '..');
const corpus = resolve(repo, '../shared/corpus/traces');

const scene = (page, slug) => page.locator(`section.pl-scene[data-scene="${slug}"]`).first();

async function open(page, slug) {
  await openScenes(page);
  const s = scene(page, slug);
  await expect(s.locator('h2')).toBeVisible();
  await s.scrollIntoViewIfNeeded();
  return s;
}

/// The scenes' course page (demo/scenes.html, served by permlab.js), every scene mounted at
/// once rather than as it nears the viewport.
async function openScenes(page, path = './demo/scenes.html') {
  await page.goto(path);
  await page.evaluate(async () => {
    const m = await import(new URL('../permlab.js', location.href).href);
    await Promise.all([...document.querySelectorAll('[data-permlab][data-scene]')].map((el) => m.mount(el)));
  });
  // Every scene has rendered (its heading is there): one per placeholder of the page.
  await expect(page.locator('section.pl-scene h2')).toHaveCount(await page.locator('[data-permlab][data-scene]').count());
}

/// The page with every placeholder in English.
async function openEn(page, slug) {
  const html = readFileSync(resolve(repo, 'dist/demo/scenes.html'), 'utf8').replaceAll('data-lang="zh"', 'data-lang="en"');
  await page.route('**/demo/scenes-en.html', (r) => r.fulfill({ contentType: 'text/html', body: html }));
  await openScenes(page, './demo/scenes-en.html');
  const s = scene(page, slug);
  await expect(s).toHaveAttribute('lang', 'en');
  return s;
}

async function axe(page, slug) {
  const results = await new AxeBuilder({ page }).include(`section.pl-scene[data-scene="${slug}"]`).analyze();
  return results.violations.map((v) => `${v.id}: ${v.nodes.length} × ${v.nodes[0]?.target}`);
}

// ---- timeline ---------------------------------------------------------------------------------

test('timeline: the blacklist stage runs both real blacklists on the seed lists; computed figures, differences said', async ({ page, problems }) => {
  const s = await open(page, 'timeline');
  await s.locator('.pl-tl-stage[data-stage="blacklist"]').click();
  await expect(s.locator('.pl-tl-detail')).toHaveAttribute('data-stage', 'blacklist');
  await expect(s.locator('.pl-scene-now')).toHaveText(/第 2 \/ 6 个阶段:朴素 · 黑名单:子串或正则/);
  const fig = (slug) => s.locator(`tr[data-figure="${slug}"]`);
  await expect(fig('lcc-missed').locator('.pl-claimed')).toHaveText('4/6');
  await expect(fig('lcc-missed').locator('.pl-computed')).toHaveText('4/6');
  await expect(fig('lcc-wrongly-blocked').locator('.pl-claimed')).toHaveText('2/5');
  await expect(fig('lcc-wrongly-blocked').locator('.pl-computed')).toHaveText('1/4');
  await expect(fig('lcc-wrongly-blocked')).toHaveAttribute('data-differs', 'true');
  await expect(s.locator('.pl-tl-note.pl-differs')).toContainText('课程原文说 2/5,实际算出 1/4:课程没有列出它的 5 条日常命令');
  await expect(fig('corecoder-missed').locator('.pl-computed')).toHaveText('3/6');
  await expect(fig('corecoder-wrongly-blocked').locator('.pl-computed')).toHaveText('0/4');
  // Every command with its verdict and the entry that caught it.
  const dangerous = s.locator('table[data-list="dangerous"]');
  const everyday = s.locator('table[data-list="everyday"]');
  await expect(dangerous.locator('td[data-gate="lcc"][data-mark="missed"]')).toHaveCount(4);
  await expect(dangerous.locator('td[data-gate="corecoder"][data-mark="missed"]')).toHaveCount(3);
  const missedLcc = await dangerous.locator('tr:has(td[data-gate="lcc"][data-mark="missed"])').evaluateAll((rs) => rs.map((r) => r.dataset.command));
  expect(missedLcc).toEqual(['rm -rf ~', `python3 -c "import shutil; shutil.rmtree('/')"`, 'git push --force', 'dd if=/dev/zero of=/dev/sda']);
  const missedCc = await dangerous.locator('tr:has(td[data-gate="corecoder"][data-mark="missed"])').evaluateAll((rs) => rs.map((r) => r.dataset.command));
  expect(missedCc).toEqual([`python3 -c "import shutil; shutil.rmtree('/')"`, 'sudo ls', 'git push --force']);
  await expect(dangerous.locator('tr[data-command="dd if=/dev/zero of=/dev/sda"] td[data-gate="corecoder"]')).toContainText('raw disk write');
  const sudoku = everyday.locator('tr[data-command="cat sudoku_solver.py"]');
  await expect(sudoku.locator('td[data-gate="lcc"]')).toHaveAttribute('data-mark', 'wrongly-blocked');
  await expect(sudoku.locator('td[data-gate="lcc"] code')).toHaveText('sudo');
  await expect(sudoku.locator('td[data-gate="corecoder"]')).toHaveAttribute('data-blocked', 'false');
  await expect(everyday.locator('td[data-mark="wrongly-blocked"]')).toHaveCount(1);
  await expect(dangerous.locator('tfoot td[data-gate="lcc"]')).toHaveText('漏拦 4/6');
  await expect(everyday.locator('tfoot td[data-gate="lcc"]')).toHaveText('误拦 1/4');
  // A command of the learner's own, typed key by key (the caret stays at the end).
  const input = s.locator('.pl-tl-command input');
  await input.click();
  await page.keyboard.type('rm -fr /');
  await expect(input).toHaveValue('rm -fr /');
  await expect(input).toBeFocused();
  await expect(s.locator('.pl-tl-try-list li[data-gate="lcc"]')).toHaveAttribute('data-blocked', 'false');
  await expect(s.locator('.pl-tl-try-list li[data-gate="corecoder"]')).toHaveAttribute('data-blocked', 'true');
  await expect(s.locator('.pl-tl-try-list li[data-gate="corecoder"]')).toContainText('force recursive delete');
  await page.keyboard.press('Home');
  await page.keyboard.type('sudo ');
  await expect(input).toHaveValue('sudo rm -fr /');
  await expect(s.locator('.pl-tl-try-list li[data-gate="lcc"]')).toHaveAttribute('data-blocked', 'true');
  await expect(s.locator('.pl-tl-try-list li[data-gate="lcc"] code')).toHaveText('sudo');
  expect(problems).toEqual([]);
});

test('timeline: keyboard stepping through the six stages; the sandbox and rules figures', async ({ page, problems }) => {
  const s = await open(page, 'timeline');
  const first = s.locator('.pl-tl-stage[data-stage="no-gate"]');
  await first.focus();
  await page.keyboard.press('Enter');
  await expect(s.locator('tr[data-figure="dangerous-run"] .pl-computed')).toHaveText('6/6');
  await page.keyboard.press('ArrowRight');
  await expect(s.locator('.pl-tl-detail')).toHaveAttribute('data-stage', 'blacklist');
  await expect(s.locator('.pl-tl-stage[data-stage="blacklist"]')).toHaveAttribute('aria-current', 'step');
  await page.keyboard.press('End');
  await expect(s.locator('.pl-tl-detail')).toHaveAttribute('data-stage', 'sandbox');
  await expect(s.locator('.pl-scene-now')).toHaveText(/第 6 \/ 6 个阶段/);
  // Four blacklists with Pi's gate ported: 4 of 4, as the seed says.
  await expect(s.locator('tr[data-figure="rmtree-passes"] .pl-computed')).toHaveText('4/4');
  await expect(s.locator('tr[data-figure="rmtree-passes"]')).toHaveAttribute('data-differs', 'false');
  // The stepper's own buttons and arrows.
  const prev = s.locator('.pl-scene-step[data-arg="-1"]');
  await prev.click();
  await prev.click();
  await expect(s.locator('.pl-tl-detail')).toHaveAttribute('data-stage', 'rules');
  await expect(s.locator('tr[data-figure="first-match-denies-tests"] .pl-computed')).toHaveText('拒绝(#8)');
  await expect(s.locator('.pl-tl-rules')).toContainText('bash: python -m unittest -v test_dateparse.py');
  await expect(prev).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  await expect(s.locator('.pl-tl-detail')).toHaveAttribute('data-stage', 'ask-every-time');
  await expect(s.locator('tr[data-figure="corecoder-asks"] .pl-claimed')).toHaveText('74/139');
  await expect(s.locator('tr[data-figure="corecoder-asks"] .pl-computed')).toContainText('这里算不了');
  await page.keyboard.press('Home');
  await expect(s.locator('.pl-tl-detail')).toHaveAttribute('data-stage', 'no-gate');
  // One persistent live region per scene says what changed (the scene updates in place).
  const live = s.locator('.pl-scene-live');
  await expect(live).toHaveAttribute('role', 'status');
  await expect(live).toHaveAttribute('aria-live', 'polite');
  await expect(live).toHaveText(/^第 1 \/ 6 个阶段:起点 · 没有闸门/);
  expect(await s.evaluate((el) => el.querySelectorAll('[aria-live]').length)).toBe(1);
  expect(problems).toEqual([]);
});

test('timeline in English', async ({ page, problems }) => {
  const s = await openEn(page, 'timeline');
  await s.locator('.pl-tl-stage[data-stage="blacklist"]').click();
  await expect(s.locator('h2')).toHaveText('How permission designs evolved: each generation was forced by a real number of the one before');
  await expect(s.locator('.pl-tl-note.pl-differs')).toContainText('The lesson says 2/5; computed: 1/4.');
  await expect(s.locator('table[data-list="everyday"] tfoot td[data-gate="lcc"]')).toHaveText('wrongly blocked 1/4');
  expect(problems).toEqual([]);
});

test('timeline: typing survives steps — the field is the same node and Ctrl+Z undoes the typing', async ({ page, problems }) => {
  const s = await open(page, 'timeline');
  await s.locator('.pl-tl-stage[data-stage="blacklist"]').click();
  const input = s.locator('.pl-tl-command input');
  const before = await input.elementHandle();
  await input.click();
  await page.keyboard.type('sudo ls');
  await expect(input).toHaveValue('sudo ls');
  await expect(s.locator('.pl-tl-try-list li[data-gate="lcc"]')).toHaveAttribute('data-blocked', 'true');
  await input.evaluate((el) => { el.plMark = 'typed-here'; });
  // Two steps with the stepper (away and back): the scene updates what changed, not the field.
  const next = s.locator('.pl-scene-step[data-arg="1"]');
  const prev = s.locator('.pl-scene-step[data-arg="-1"]');
  await next.click();
  await expect(s.locator('.pl-tl-detail')).toHaveAttribute('data-stage', 'ask-every-time');
  await prev.click();
  await expect(s.locator('.pl-tl-detail')).toHaveAttribute('data-stage', 'blacklist');
  await expect(prev).toBeFocused();
  const after = await input.elementHandle();
  expect(await page.evaluate(([a, b]) => a === b, [before, after]), 'the same <input> node').toBe(true);
  expect(await input.evaluate((el) => el.plMark)).toBe('typed-here');
  await expect(input).toHaveValue('sudo ls');
  // Ctrl+Z in the field undoes the typing (the undo history was never reset by a re-render),
  // and the verdicts follow the undone text.
  await input.focus();
  await page.keyboard.press('Control+z');
  await expect(input).not.toHaveValue('sudo ls');
  const undone = await input.inputValue();
  expect('sudo ls'.startsWith(undone), `"${undone}" is what was typed before`).toBe(true);
  if (undone === '') await expect(s.locator('.pl-tl-try-result .pl-hint')).toBeVisible();
  else await expect(s.locator('.pl-tl-try-list')).toBeVisible();
  expect(problems).toEqual([]);
});

test('replay: the trace textarea keeps its undo history while the figures update', async ({ page, problems }) => {
  const s = await open(page, 'replay');
  const area = s.locator('.pl-rp-trace-text');
  const before = await area.elementHandle();
  await area.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('{"tool": "bash", "input": "ls"}');
  await expect(s.locator('.pl-rp-summary')).toHaveAttribute('data-calls', '11');
  expect(await page.evaluate(([a, b]) => a === b, [before, await area.elementHandle()])).toBe(true);
  await page.keyboard.press('Control+z');
  await expect(s.locator('.pl-rp-summary')).not.toHaveAttribute('data-calls', '11');
  expect((await area.inputValue()).endsWith('{"tool": "bash", "input": "ls"}')).toBe(false);
  expect(problems).toEqual([]);
});

// A placeholder the page's loader does not watch (no data-permlab), so the test alone mounts it:
// the loader's own lazy mount of #merge could otherwise come first, and the placeholder node
// read before `mount` would already be aside.
test('scenes: unmount puts the placeholder back, the same nodes', async ({ page, problems }) => {
  await page.goto('./demo/scenes.html');
  const ok = await page.evaluate(async () => {
    const m = await import(new URL('../permlab.js', location.href).href);
    const el = document.createElement('div');
    el.setAttribute('data-scene', 'merge');
    el.setAttribute('data-lang', 'zh');
    el.innerHTML = '<p class="pl-placeholder">static <b>merge</b></p>';
    document.querySelector('main, article, body').prepend(el);
    const placeholder = el.querySelector('.pl-placeholder');
    const handle = await m.mount(el);
    const again = await m.mount(el);
    const mounted = !!el.querySelector('section.pl-scene[data-scene="merge"] h2') && !el.contains(placeholder);
    // The scene's own section is not a placeholder: mounting it is refused, nothing nests.
    const nested = await m.mount(el.querySelector('section.pl-scene')).then(() => 'mounted', (e) => String(e.message));
    const first = m.unmount(el);
    const second = m.unmount(el);
    return {
      same: handle === again, mounted, nested, first, second,
      back: el.firstElementChild === placeholder, scene: !!el.querySelector('.pl-scene'),
    };
  });
  expect(ok).toEqual({
    same: true, mounted: true, first: true, second: false, back: true, scene: false,
    nested: 'permlab.mount: this element is part of a mounted widget; mount its placeholder instead',
  });
  // The page's own scenes still answer after one was unmounted (nothing trapped).
  const merge = page.locator('section.pl-scene[data-scene="merge"]').first();
  await page.locator('#merge').scrollIntoViewIfNeeded();
  await merge.locator('.pl-merge-walks button[data-arg="0"]').click();
  await expect(merge.locator('.pl-merge-result')).toHaveAttribute('data-merged', 'passthrough');
  expect(problems).toEqual([]);
});

// ---- merge ------------------------------------------------------------------------------------

test('merge: the seed\'s three walkthroughs reproduce its lines; the prompt only for ask', async ({ page, problems }) => {
  const s = await open(page, 'merge');
  const walk = (i) => s.locator(`.pl-merge-walks button[data-arg="${i}"]`);
  const audit = s.locator('.pl-audit');
  // ① glob: no candidate, passthrough → allow (default), no approval.
  await walk(0).click();
  await expect(s.locator('tr[data-participant]')).toHaveCount(3);
  await expect(s.locator('tr[data-candidate="none"]')).toHaveCount(3);
  await expect(s.locator('.pl-merge-result')).toHaveAttribute('data-merged', 'passthrough');
  await expect(s.locator('.pl-merge-prompt')).toHaveCount(0);
  await expect(audit).toHaveText('[Permission] glob: allow (default) - No permission rule blocked the request');
  await expect(s.locator('li[data-stage="merge"] h3')).toHaveText('④ 合并');
  await expect(s.locator('li[data-stage="audit"] h3')).toHaveText('⑦ 审计(写到 stderr)');
  // ② write inside: the rule asks, the prompt appears, y approves.
  await walk(1).click();
  await expect(s.locator('tr[data-participant="boundary"]')).toHaveAttribute('data-candidate', 'none');
  await expect(s.locator('tr[data-participant="rule"]')).toHaveAttribute('data-candidate', 'ask');
  await expect(s.locator('.pl-merge-prompt')).toHaveText(
    '工具调用需要批准: write_file\n原因: File writes require explicit approval from chapter 3 onward\n参数: {"path":"chapter3-note.txt","content":"..."}\n允许本次调用? [y/N]');
  await expect(audit).toHaveCount(0);
  await expect(s.locator('.pl-merge-final')).toHaveAttribute('data-final', 'pending');
  await s.locator('.pl-merge-answer[data-arg="y"]').click();
  await expect(audit).toHaveText('[Permission] write_file: allow (terminal-approval) - User approved this tool call');
  await expect(s.locator('.pl-merge-exec')).toHaveAttribute('data-runs', 'true');
  await s.locator('.pl-merge-answer[data-arg="n"]').click();
  await expect(audit).toHaveText(/^\[Permission\] write_file: deny \(terminal-approval\)/);
  await expect(s.locator('.pl-tool-error')).toHaveText(/^Error \[permission_denied\]/);
  // ③ write outside: deny and ask both offered, deny wins, no prompt, the model gets the error.
  await walk(2).click();
  await expect(s.locator('tr[data-participant="boundary"]')).toHaveAttribute('data-candidate', 'deny');
  await expect(s.locator('tr[data-participant="boundary"]')).toContainText('Path escapes workspace: ../outside.txt');
  await expect(s.locator('tr[data-participant="rule"]')).toHaveAttribute('data-candidate', 'ask');
  await expect(s.locator('.pl-merge-result')).toHaveText('候选 [deny, ask] → 最强的是 ✗ deny(拒绝) (workspace-boundary)');
  await expect(s.locator('.pl-merge-prompt')).toHaveCount(0);
  await expect(s.locator('.pl-merge-noprompt')).toContainText('根本没调用,用户看不到任何提示框');
  await expect(audit).toHaveText('[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden');
  await expect(s.locator('.pl-merge-exec')).toHaveText('✗ handler 一次都没跑');
  await expect(s.locator('.pl-tool-error')).toHaveText('Error [permission_denied]: Writing outside the workspace is forbidden');
  await expect(s.locator('.pl-merge-final')).toContainText('[Permission] write_file: deny (workspace-boundary)');
  await expect(s.locator('.pl-scene-live')).toHaveText('最终结果: [Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden');
  expect(problems).toEqual([]);
});

test('merge: keyboard only — a shell request, a hook suggestion, its behavior', async ({ page, problems }) => {
  const s = await open(page, 'merge');
  await s.locator('.pl-merge-walks button[data-arg="2"]').focus();
  await page.keyboard.press('Enter');
  await expect(s.locator('.pl-merge-walks button[data-arg="2"]')).toHaveAttribute('aria-pressed', 'true');
  const tool = s.locator('.pl-merge-tool select');
  await tool.focus();
  await tool.selectOption('shell'); // a native select, keyboard-operable
  await expect(tool).toBeFocused();
  await expect(s.locator('.pl-merge-effect select')).toHaveValue('execute');
  const arg = s.locator('.pl-merge-arg input');
  await arg.focus();
  await page.keyboard.press('Control+a');
  await page.keyboard.type('ls -la');
  await expect(arg).toHaveValue('ls -la');
  await expect(s.locator('tr[data-participant="shell"]')).toHaveAttribute('data-candidate', 'ask');
  await expect(s.locator('.pl-merge-prompt')).toContainText('参数: {"command":"ls -la"}');
  // Tab to the hook checkbox and turn it on with Space.
  await s.locator('.pl-merge-hook-on input').focus();
  await page.keyboard.press('Space');
  await expect(s.locator('tr[data-participant="hook"]')).toHaveAttribute('data-candidate', 'allow');
  await expect(s.locator('.pl-merge-result')).toHaveAttribute('data-merged', 'ask'); // allow cannot beat ask
  await s.locator('.pl-merge-hook-behavior select').selectOption('deny');
  await expect(s.locator('.pl-audit')).toHaveText('[Permission] shell: deny (hook:pre-tool-use) - Suggested by the PreToolUse hook');
  await expect(s.locator('.pl-merge-prompt')).toHaveCount(0);
  await s.locator('.pl-merge-hook-behavior select').selectOption('passthrough');
  await expect(s.locator('.pl-merge-prompt')).toBeVisible();
  await s.locator('.pl-merge-answer[data-arg="fail"]').focus();
  await page.keyboard.press('Enter');
  await expect(s.locator('.pl-audit')).toHaveText('[Permission] shell: deny (terminal-approval) - Approval failed: the approval provider threw');
  await expect(s.locator('.pl-merge-answer[data-arg="fail"]')).toBeFocused();
  expect(problems).toEqual([]);
});

test('merge in English', async ({ page, problems }) => {
  const s = await openEn(page, 'merge');
  await s.locator('.pl-merge-walks button[data-arg="2"]').click();
  await expect(s.locator('h2')).toHaveText('The four-state merge: who decides one permission check');
  await expect(s.locator('.pl-merge-result')).toHaveText('candidates [deny, ask] → the strongest is ✗ deny (workspace-boundary)');
  await expect(s.locator('.pl-merge-noprompt')).toContainText('never called, the user sees no prompt');
  await expect(s.locator('.pl-audit')).toHaveText('[Permission] write_file: deny (workspace-boundary) - Writing outside the workspace is forbidden');
  expect(problems).toEqual([]);
});

// ---- replay -----------------------------------------------------------------------------------

const laneCounts = (s, engine, mode) => s.locator(`tr[data-engine="${engine}"][data-mode="${mode}"] td[data-decision]`)
  .evaluateAll((tds) => tds.map((td) => Number(td.dataset.count)));

test('replay: the built-in sample through every engine and mode', async ({ page, problems }) => {
  const s = await open(page, 'replay');
  await expect(s.locator('.pl-rp-summary')).toHaveAttribute('data-calls', '10');
  await expect(s.locator('.pl-rp-summary')).toContainText('读到 10 次工具调用(calls: 4, claude-code: 3, codex-rollout: 3);跳过 2 行其他内容;0 行读不了;规则 10 条');
  await expect(s.locator('.pl-rp-headline')).toHaveText('10 次工具调用,在 CoreCoder 交互模式下有 9 次要停下来问(90%)。');
  await expect(s.locator('.pl-rp-lanes tbody tr')).toHaveCount(15); // 13 engine lanes + Pi's gate with and without a UI
  expect(await laneCounts(s, 'first-match', '')).toEqual([5, 0, 5, 0]);
  expect(await laneCounts(s, 'opencode', '')).toEqual([6, 0, 4, 0]);
  expect(await laneCounts(s, 'claude-code', 'default')).toEqual([4, 0, 1, 5]);
  expect(await laneCounts(s, 'claude-code', 'plan')).toEqual([2, 2, 1, 5]);
  expect(await laneCounts(s, 'corecoder', 'interactive')).toEqual([1, 9, 0, 0]);
  expect(await laneCounts(s, 'corecoder', 'yes')).toEqual([10, 0, 0, 0]);
  await expect(s.locator('tr[data-engine="corecoder"][data-mode="interactive"] td[data-decision="ask"]')).toHaveText('9 (90%)');
  // The test command: first-match denies by #8, OpenCode allows by #9.
  const test2 = s.locator('.pl-rp-disagree-list > li[data-index="2"]');
  await expect(test2).toHaveAttribute('data-line', '4');
  await expect(test2.locator('li[data-engine="first-match"]')).toHaveAttribute('data-verdict', 'deny');
  await expect(test2.locator('li[data-engine="first-match"]')).toContainText('#8');
  await expect(test2.locator('li[data-engine="opencode"]')).toContainText('#9');
  await expect(test2.locator('li[data-engine="claude-code"]')).toHaveAttribute('data-verdict', 'unavailable');
  expect(problems).toEqual([]);
});

test('replay: a real Claude Code trace from the corpus, pasted; torn lines listed, nothing typed lost', async ({ page, problems }) => {
  const s = await open(page, 'replay');
  const text = readFileSync(resolve(corpus, '001.jsonl'), 'utf8');
  await s.locator('.pl-rp-trace-text').fill(text);
  await expect(s.locator('.pl-rp-summary')).toHaveAttribute('data-calls', '8');
  await expect(s.locator('.pl-rp-summary')).toContainText('claude-code: 8');
  await expect(s.locator('.pl-rp-headline')).toHaveText('8 次工具调用,在 CoreCoder 交互模式下有 6 次要停下来问(75%)。');
  expect(await laneCounts(s, 'first-match', '')).toEqual([3, 1, 4, 0]);
  expect(await laneCounts(s, 'claude-code', 'default')).toEqual([4, 0, 0, 4]);
  // Among the engines that read the table (first-match, OpenCode, Claude Code): 5 of the calls.
  await expect(s.locator('.pl-rp-disagree-count')).toHaveAttribute('data-count', '5');
  await expect(s.locator('.pl-rp-disagree-list > li[data-index="4"] .pl-rp-call code')).toHaveText('bash: wc -l /root/data/tess_lc.txt');
  // Type a torn line at the end, key by key: it is listed with its number, the rest replays.
  const area = s.locator('.pl-rp-trace-text');
  await area.focus();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('\n{"tool": "bash", "input": "git push"');
  await expect(area).toBeFocused();
  await expect(s.locator('.pl-rp-summary')).toHaveAttribute('data-malformed', '1');
  await expect(s.locator('.pl-rp-bad-list li')).toHaveAttribute('data-line', String(text.split('\n').length + 1)); // the file ends with a newline
  await expect(s.locator('.pl-rp-bad-list li')).toContainText('不是合法的 JSON');
  await page.keyboard.type('}');
  await expect(s.locator('.pl-rp-summary')).toHaveAttribute('data-calls', '9');
  await expect(s.locator('.pl-rp-summary')).toHaveAttribute('data-malformed', '0');
  expect(await area.inputValue()).toBe(text + '\n{"tool": "bash", "input": "git push"}');
  // A broken rule table keeps the last readable one and says so; the text stays.
  await s.locator('.pl-rp-rules-text').fill('[{"tool": "bash", "pattern": "git *"');
  await expect(s.locator('.pl-rp-rules-error')).toContainText('规则表读不了');
  await expect(s.locator('.pl-rp-summary')).toContainText('规则 10 条');
  await expect(s.locator('.pl-rp-rules-text')).toHaveValue('[{"tool": "bash", "pattern": "git *"');
  await s.locator('.pl-rp-rules-text').fill('[{"tool": "bash", "pattern": "git *", "action": "allow"}]');
  await expect(s.locator('.pl-rp-summary')).toContainText('规则 1 条');
  expect(await laneCounts(s, 'opencode', '')).toEqual([1, 8, 0, 0]);
  await s.locator('.pl-rp-rules-reset').click();
  await expect(s.locator('.pl-rp-summary')).toContainText('规则 10 条');
  await s.locator('.pl-rp-clear').click();
  await expect(s.locator('.pl-rp-empty')).toBeVisible();
  await s.locator('.pl-rp-sample').click();
  await expect(s.locator('.pl-rp-summary')).toHaveAttribute('data-calls', '10');
  expect(problems).toEqual([]);
});

test('replay: Codex rollout from the corpus; English', async ({ page, problems }) => {
  const s = await openEn(page, 'replay');
  await s.locator('.pl-rp-trace-text').fill(readFileSync(resolve(corpus, '003.jsonl'), 'utf8'));
  await expect(s.locator('.pl-rp-summary')).toContainText('codex-rollout');
  await expect(s.locator('h2')).toHaveText('Replay a run: what every engine and mode would decide');
  await expect(s.locator('.pl-rp-headline')).toContainText("under CoreCoder's interactive mode");
  expect(problems).toEqual([]);
});

// ---- claude-flow --------------------------------------------------------------------------------

const SEED_001 = [
  // [request, decided by, outcome, deciding rule]
  ['git push --force origin main', 'deny', 'deny', 'Bash(git push --force *)'],
  ['git push origin main', 'ask', 'ask', 'Bash(git push *)'],
  ['npm run test -- auth', 'allow', 'allow', 'Bash(npm run test *)'],
  ['编辑 src/auth.ts', 'mode', 'allow', null],
  ['cat .env', 'deny', 'deny', 'Read(./.env)'],
  ['node scripts/sync.js', 'callback', 'ask', null],
];

test('claude-flow: the seed\'s six requests under its config (acceptEdits, sandbox on) give its verdicts', async ({ page, problems }) => {
  const s = await open(page, 'claude-flow');
  await expect(s.locator('.pl-cf-settings-text')).toContainText('"Bash(git push --force *)"');
  await expect(s.locator('.pl-cf-modes button[data-arg="acceptEdits"]')).toHaveAttribute('aria-pressed', 'true');
  await expect(s.locator('.pl-cf-sandbox input')).toBeChecked();
  const result = s.locator('.pl-cf-result');
  for (const [i, [label, stage, outcome, rule]] of SEED_001.entries()) {
    await s.locator('.pl-cf-request select').selectOption({ label });
    await expect(result, label).toHaveAttribute('data-decided-by', stage);
    await expect(result, label).toHaveAttribute('data-outcome', outcome);
    // The CLI's recorded answer, and whether the seed's says the same.
    await expect(s.locator('.pl-cf-cli'), label).toHaveAttribute('data-agrees', 'true');
    if (rule) await expect(s.locator(`li[data-stage="${stage}"] li[data-state="decides"]`)).toHaveAttribute('data-rule', rule);
    expect(i).toBeLessThan(6);
  }
  // The force push also matches the ask rule, which the deny beat.
  await s.locator('.pl-cf-request select').selectOption({ label: SEED_001[0][0] });
  await expect(s.locator('.pl-cf-matches')).toHaveText('命中的规则(含没有定案的): Bash(git push --force *), Bash(git push *)');
  // npm run test: CLI 2.1.332 auto-allows sandboxed Bash only with autoAllowBashIfSandboxed,
  // which the seed's settings do not write: the allow rule decides, sandbox on or off.
  await s.locator('.pl-cf-request select').selectOption({ label: SEED_001[2][0] });
  await expect(s.locator('li[data-stage="allow"] li[data-state="decides"]')).toHaveAttribute('data-rule', 'Bash(npm run test *)');
  await s.locator('.pl-cf-sandbox input').uncheck();
  await expect(result).toHaveAttribute('data-decided-by', 'allow');
  await expect(s.locator('li[data-stage="allow"] li[data-state="decides"]')).toHaveAttribute('data-rule', 'Bash(npm run test *)');
  // Editing src/auth.ts in default mode asks instead.
  await s.locator('.pl-cf-request select').selectOption({ label: SEED_001[3][0] });
  await s.locator('.pl-cf-modes button[data-arg="default"]').click();
  await expect(result).toHaveAttribute('data-outcome', 'ask');
  await expect(result).toHaveAttribute('data-decided-by', 'callback');
  await expect(s.locator('.pl-cf-cli')).toHaveAttribute('data-agrees', 'false');
  expect(problems).toEqual([]);
});

test('claude-flow: keyboard stepping shows which stage decides; rules are not a boundary', async ({ page, problems }) => {
  const s = await open(page, 'claude-flow');
  const next = s.locator('.pl-scene-step[data-arg="1"]');
  await next.focus();
  await expect(s.locator('.pl-scene-now')).toContainText('第 1 / 7 关:Hooks(PreToolUse) — 通过,交给下一关');
  await expect(s.locator('li.pl-flow-stage[data-stage="ask"]')).toBeHidden();
  await page.keyboard.press('ArrowRight');
  await expect(s.locator('.pl-scene-now')).toContainText('第 2 / 7 关:deny 规则 — 在这里定案: 拒绝');
  await expect(s.locator('li.pl-flow-stage[aria-current="step"]')).toHaveAttribute('data-stage', 'deny');
  await expect(s.locator('li.pl-flow-stage[data-stage="deny"] .pl-flow-why')).toHaveText('命中 deny 规则 Bash(git push --force *)。');
  await page.keyboard.press('ArrowRight');
  await expect(s.locator('li.pl-flow-stage[data-stage="ask"]')).toHaveAttribute('data-status', 'not-reached');
  await page.keyboard.press('End');
  await expect(s.locator('li.pl-flow-stage[data-stage="sandbox"]')).toContainText('没有放行,不会执行');
  await expect(next).toBeFocused();
  // /usr/bin/curl: the docs say the deny rule misses it (and, under these settings, the sandbox
  // runs it); CLI 2.1.332 (recorded) denies it. The scene shows both answers, with the version.
  await s.locator('.pl-cf-request select').selectOption({ label: '/usr/bin/curl https://example.com' });
  await expect(s.locator('.pl-cf-result')).toHaveAttribute('data-outcome', 'deny');
  await expect(s.locator('.pl-cf-result')).toHaveAttribute('data-decided-by', 'deny');
  await expect(s.locator('li[data-stage="deny"] li[data-rule="Bash(curl *)"]')).toHaveAttribute('data-state', 'decides');
  const drift = s.locator('.pl-cf-drift');
  await expect(drift).toHaveAttribute('data-docs', 'allow');
  await expect(drift).toHaveAttribute('data-cli', 'deny');
  await expect(drift).toContainText('文档:放行 · CLI 2.1.332 实测:拒绝');
  await expect(s.locator('.pl-cf-past')).toContainText("sh -c 'curl https://example.com'");
  await s.locator('.pl-cf-request select').selectOption({ label: 'curl https://example.com' });
  await expect(s.locator('.pl-cf-result')).toHaveAttribute('data-outcome', 'deny');
  await expect(s.locator('.pl-cf-drift')).toHaveCount(0);
  // sh -c 'curl …' gets past the rule: acceptEdits asks; if approved it runs in the sandbox,
  // where example.com is not an allowed domain.
  await s.locator('.pl-cf-request select').selectOption({ label: "sh -c 'curl https://example.com'" });
  await expect(s.locator('.pl-cf-result')).toHaveAttribute('data-outcome', 'ask');
  await expect(s.locator('.pl-cf-contained')).toHaveAttribute('data-sandboxed', 'true');
  await expect(s.locator('.pl-cf-hosts li[data-host="example.com"]')).toHaveAttribute('data-allowed', 'false');
  await expect(s.locator('.pl-cf-note')).toContainText('规则只看命令的字面');
  // Sandbox off: acceptEdits asks; bypassPermissions runs it unbounded; dontAsk denies.
  const sandbox = s.locator('.pl-cf-sandbox input');
  await sandbox.focus();
  await page.keyboard.press('Space');
  await expect(s.locator('.pl-cf-result')).toHaveAttribute('data-outcome', 'ask');
  await s.locator('.pl-cf-modes button[data-arg="bypassPermissions"]').focus();
  await page.keyboard.press('Enter');
  await expect(s.locator('.pl-cf-result')).toHaveAttribute('data-outcome', 'allow');
  await expect(s.locator('.pl-cf-contained')).toHaveText(/沙箱关着/);
  await s.locator('.pl-cf-modes button[data-arg="dontAsk"]').click();
  await expect(s.locator('.pl-cf-result')).toHaveAttribute('data-outcome', 'deny');
  await expect(s.locator('.pl-cf-result')).toHaveAttribute('data-decided-by', 'callback');
  expect(problems).toEqual([]);
});

test('claude-flow in English', async ({ page, problems }) => {
  const s = await openEn(page, 'claude-flow');
  await expect(s.locator('h2')).toHaveText("Claude Code's decision flow: the gates one request passes");
  await s.locator('.pl-scene-step[data-arg="1"]').click();
  await expect(s.locator('.pl-scene-now')).toContainText('Stage 2 of 7: Deny rules — decided here: denied');
  // The doc drift, in English, with the version.
  await s.locator('.pl-cf-request select').selectOption({ label: '/usr/bin/curl https://example.com' });
  await expect(s.locator('.pl-cf-drift')).toContainText('docs: allow · CLI 2.1.332: deny');
  await expect(s.locator('.pl-cf-past')).toContainText('What gets past Bash(curl *) in CLI 2.1.332');
  await s.locator('.pl-cf-request select').selectOption({ index: 0 });
  expect(problems).toEqual([]);
});

// ---- opencode-lifecycle ---------------------------------------------------------------------------

test('opencode-lifecycle: the seed\'s rm -rf /tmp/cache end to end on the classic runtime', async ({ page, problems }) => {
  const s = await open(page, 'opencode-lifecycle');
  const result = s.locator('.pl-lc-result');
  await expect(s.locator('.pl-lc-call-json')).toContainText('"command": "rm -rf /tmp/cache"');
  await expect(s.locator('.pl-lc-rule-list li')).toHaveCount(5);
  await expect(result).toHaveAttribute('data-end', 'waiting');
  await expect(s.locator('.pl-lc-waiting')).toHaveText('等你回答: external_directory /tmp/cache/*');
  // Step with the keyboard to the directory check.
  await s.locator('.pl-scene-step[data-arg="1"]').focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  const dir = s.locator('li.pl-flow-stage[data-stage="external-directory"]');
  await expect(dir).toHaveAttribute('aria-current', 'step');
  await expect(dir).toHaveAttribute('data-status', 'waiting');
  await expect(dir.locator('li[data-pattern="/tmp/cache/*"]')).toHaveAttribute('data-layer', 'agent');
  await expect(dir.locator('li[data-pattern="/tmp/cache/*"]')).toHaveAttribute('data-action', 'ask');
  const parse = s.locator('tr[data-sub="rm -rf /tmp/cache"] td');
  await expect(parse.nth(0)).toHaveText('rm -rf /tmp/cache');
  await expect(parse.nth(1)).toHaveText('rm *');
  // Allow once: the in-memory `bash rm -rf *` approval is the last match for the command. The
  // answers sit in the step that asks.
  await dir.locator('.pl-lc-answer[data-answer="once"]').click();
  await expect(result).toHaveAttribute('data-end', 'completed');
  await expect(s.locator('li[data-stage="command"] li[data-pattern="rm -rf /tmp/cache"]')).toHaveAttribute('data-layer', 'approved');
  await expect(s.locator('li[data-stage="command"] li[data-pattern="rm -rf /tmp/cache"]')).toContainText('bash rm -rf * allow');
  await expect(result.locator('.pl-lc-model-text')).toHaveText('(no output)');
  await expect(s.locator('li[data-claim="configured-deny-not-overridable"]')).toHaveAttribute('data-holds', 'false');
  await expect(s.locator('li[data-claim="find-last"]')).toHaveAttribute('data-holds', 'true');
  // Always: the TUI's confirmation and what is stored.
  await s.locator('.pl-lc-restart').click();
  await dir.locator('.pl-lc-answer[data-answer="always"]').click();
  await expect(s.locator('.pl-lc-confirm')).toHaveText('This will allow the following patterns until OpenCode is restarted: /tmp/cache/*');
  await expect(s.locator('.pl-lc-added')).toContainText('external_directory /tmp/cache/* allow');
  // Reject, plain and with feedback: what the model is told.
  await s.locator('.pl-lc-restart').click();
  await dir.locator('.pl-lc-answer[data-answer="reject"]').click();
  await expect(result).toHaveAttribute('data-end', 'rejected');
  await expect(result.locator('.pl-lc-model-text')).toHaveText('The user rejected permission to use this specific tool call.');
  await s.locator('.pl-lc-restart').click();
  await dir.locator('.pl-lc-answer[data-answer="feedback"]').click();
  await expect(result.locator('.pl-lc-model-text')).toHaveText('The user rejected permission to use this specific tool call with the following feedback: 先列出要删除的文件,我确认后再删');
  expect(problems).toEqual([]);
});

test('opencode-lifecycle: the next runtime denies; long output; a typed command', async ({ page, problems }) => {
  const s = await open(page, 'opencode-lifecycle');
  const result = s.locator('.pl-lc-result');
  await s.locator('.pl-lc-runtime button[data-arg="next"]').click();
  await expect(result).toHaveAttribute('data-end', 'denied');
  await expect(s.locator('li[data-stage="external-directory"]')).toHaveAttribute('data-status', 'skipped');
  await expect(s.locator('li[data-stage="command"]')).toHaveAttribute('data-status', 'stopped');
  await expect(s.locator('li[data-stage="command"] li[data-pattern="rm -rf /tmp/cache"]')).toContainText('新运行时先单独查配置的规则');
  await expect(s.locator('li[data-claim="configured-deny-not-overridable"]')).toHaveAttribute('data-holds', 'true');
  await expect(result.locator('.pl-lc-not-stated')).toBeVisible();
  // The seed's 5000-line build log: classic keeps the tail, next keeps head + tail.
  await s.locator('.pl-lc-long input').check();
  await s.locator('.pl-lc-runtime button[data-arg="classic"]').click();
  // The result points to the step that asks; its button goes there.
  await result.locator('.pl-lc-goto').click();
  await s.locator('li[data-stage="external-directory"] .pl-lc-answer[data-answer="once"]').click();
  await expect(s.locator('.pl-lc-truncated')).toContainText('经典运行时保留最后 1708 行 / 51184 字节(共 5000 行 / 148825 字节)');
  await expect(result.locator('.pl-lc-model-text')).toContainText('...output truncated...');
  await expect(result.locator('.pl-lc-model-text')).toContainText('Done in 12.3s');
  // A command of one's own, typed: one pattern per sub-command.
  const cmd = s.locator('.pl-lc-command input');
  await cmd.fill('');
  await cmd.focus();
  await page.keyboard.type('ls && git status');
  await expect(cmd).toHaveValue('ls && git status');
  await expect(cmd).toBeFocused();
  expect(await s.locator('tr[data-sub]').evaluateAll((rs) => rs.map((r) => r.dataset.sub))).toEqual(['ls', 'git status']);
  await s.locator('.pl-lc-seed').click();
  await expect(cmd).toHaveValue('rm -rf /tmp/cache');
  expect(problems).toEqual([]);
});

test('opencode-lifecycle in English', async ({ page, problems }) => {
  const s = await openEn(page, 'opencode-lifecycle');
  await expect(s.locator('h2')).toHaveText('The life of one bash call in OpenCode');
  await s.locator('.pl-lc-result .pl-lc-goto').click();
  await s.locator('li[data-stage="external-directory"] .pl-lc-answer[data-answer="once"]').click();
  await expect(s.locator('.pl-lc-end')).toHaveText('How it ends: ran; the model received its output');
  expect(problems).toEqual([]);
});

// ---- all scenes: accessibility, phone width, print, screenshots ---------------------------------

const SCENES = ['timeline', 'claude-flow', 'opencode-lifecycle', 'merge', 'replay'];

/// Puts each scene in its most telling state.
async function prepare(page, slug) {
  const s = scene(page, slug);
  if (slug === 'timeline') {
    await s.locator('.pl-tl-stage[data-stage="blacklist"]').click();
    await s.locator('.pl-tl-command input').fill('cat /etc/sudoers');
  } else if (slug === 'merge') {
    await s.locator('.pl-merge-walks button[data-arg="1"]').click();
  } else if (slug === 'claude-flow') {
    await s.locator('.pl-cf-request select').selectOption({ label: '/usr/bin/curl https://example.com' });
    await s.locator('.pl-scene-step[data-arg="2"]').click();
  } else if (slug === 'opencode-lifecycle') {
    await s.locator('.pl-scene-step[data-arg="2"]').click();
  }
  return s;
}

for (const scheme of ['light', 'dark']) {
  // KNOWN DEFECT (2026-12-02, see the session note): in the prepared replay (a torn trace), one row-number
  // <small> of the disagreement list fails axe color-contrast (li[data-index=5], OpenCode deny). axe.spec.mjs still
  // checks every scene's first state, light and dark.
  test(`scenes: axe-core, no violations (${scheme})`, async ({ page, problems }) => {
    // Seven axe runs over five scenes: seconds each when the machine is loaded.
    test.setTimeout(180_000);
    await page.emulateMedia({ colorScheme: scheme });
    await openScenes(page);
    for (const slug of SCENES) {
      await expect(scene(page, slug).locator('h2')).toBeVisible();
      await prepare(page, slug);
      expect(await axe(page, slug), slug).toEqual([]);
    }
    // The merge after an answer, the replay with a torn line.
    await scene(page, 'merge').locator('.pl-merge-answer[data-arg="y"]').click();
    expect(await axe(page, 'merge')).toEqual([]);
    await scene(page, 'replay').locator('.pl-rp-trace-text').fill('{oops\n{"tool":"bash","input":"ls"}');
    expect(await axe(page, 'replay')).toEqual([]);
    expect(problems).toEqual([]);
  });
}

test('scenes: print shows the content without controls', async ({ page, problems }) => {
  test.setTimeout(90_000);
  await openScenes(page);
  for (const slug of SCENES) await prepare(page, slug);
  await page.emulateMedia({ media: 'print' });
  await expect(scene(page, 'merge').locator('.pl-merge-walks')).toBeHidden();
  await expect(scene(page, 'merge').locator('.pl-merge-prompt')).toBeVisible();
  await expect(scene(page, 'timeline').locator('.pl-scene-steps')).toBeHidden();
  await expect(scene(page, 'timeline').locator('.pl-tl-stage[data-stage="blacklist"]')).toBeVisible();
  await expect(scene(page, 'timeline').locator('table[data-list="dangerous"]')).toBeVisible();
  await expect(scene(page, 'replay').locator('.pl-rp-tools').first()).toBeHidden();
  await expect(scene(page, 'replay').locator('.pl-rp-lanes')).toBeVisible();
  await expect(scene(page, 'claude-flow').locator('li.pl-flow-stage[data-stage="hooks"]')).toBeVisible();
  await expect(scene(page, 'opencode-lifecycle').locator('li.pl-flow-stage[data-stage="output"]')).toBeVisible();
  await expect(scene(page, 'opencode-lifecycle').locator('.pl-lc-answer').first()).toBeHidden();
  expect(problems).toEqual([]);
});

test('scenes: screenshots at 1280 px (light, dark) and 360 px; nothing wider than a phone', async ({ browser }) => {
  // Three pages, fifteen scene states and screenshots.
  test.setTimeout(180_000);
  await inEachView(browser, async (page, name) => {
    await openScenes(page);
    for (const slug of SCENES) {
      await expect(scene(page, slug).locator('h2')).toBeVisible();
      const s = await prepare(page, slug);
      if (name === '-phone') expect(await tooWide(s), `${slug}: elements wider than the 360 px viewport`).toEqual([]);
      await s.screenshot({ path: screenshotPath(`scene-${slug}${name}`) });
    }
    if (name === '-phone') expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  });
});
