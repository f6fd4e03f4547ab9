// The linter in the widget: the import panel lints a pasted config (in the on-demand worker)
// and shows "你的配置里有 N 处问题" with each finding worded in the widget's language; a
// finding's button loads its demonstrating call into the call fields and opens the stepper, and
// the harness's engine, once revealed, answers what the finding says. Real configs are read in
// place from ../shared/corpus. Hooks: `.pl-findings-headline[data-count]`,
// `.pl-finding[data-kind][data-harness]`, `.pl-finding-call[data-tool][data-input]`,
// `.pl-finding-verdict[data-verdict]` (inside the folded `.pl-finding-answer`).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { test, expect, screenshotPath } from './fixtures.mjs';

const repo = resolve(import.meta.dirname, '../../..');
const corpus = (p) => readFileSync(resolve(repo, '../shared/corpus', p), 'utf8');

/** The index page's widget (zh), or a second widget mounted with `data-lang="en"`. */
async function widget(page, lang) {
  await page.goto('./');
  await expect(page.locator('tbody.pl-rules tr').first()).toBeVisible();
  if (lang === 'zh') return page.locator('.pl-widget').first();
  await page.evaluate(() => {
    const div = document.createElement('div');
    div.id = 'en-widget';
    div.dataset.lang = 'en';
    document.body.append(div);
    window.wasmBindings.mount(div);
  });
  const w = page.locator('#en-widget');
  await expect(w.locator('tbody.pl-rules tr').first()).toBeVisible();
  return w;
}

async function paste(w, text) {
  const panel = w.locator('.pl-import');
  if (!(await panel.evaluate((d) => d.open))) await panel.locator('summary').click();
  await w.locator('.pl-import-text').fill(text);
  await w.locator('.pl-import-button').click();
}

/** Loads finding `i`'s call, checks the call fields and the stepper, reveals the harness's
 * panel and checks its verdict against the finding's (folded) answer. */
async function loadAndCheck(w, i, engine) {
  const finding = w.locator('.pl-finding').nth(i);
  const button = finding.locator('.pl-finding-call');
  const tool = await button.getAttribute('data-tool');
  const input = await button.getAttribute('data-input');
  await button.click();
  await expect(w.locator('.pl-call-tool-input')).toHaveValue(tool);
  await expect(w.locator('.pl-call-input-text')).toHaveValue(input);
  await expect(w.locator('.pl-call-now .pl-call-input')).toHaveText(input);
  await expect(w.locator('.pl-step-toggle')).toHaveAttribute('aria-expanded', 'true');
  await expect(w.locator('.pl-step-line').first()).toBeVisible();
  // Guess, then reveal: the verdict is folded until the learner opens it.
  const verdict = finding.locator('.pl-finding-verdict');
  await expect(verdict).toBeHidden();
  await finding.locator('.pl-finding-answer summary').click();
  await expect(verdict).toBeVisible();
  const said = await verdict.getAttribute('data-verdict');
  const panel = w.locator(`.pl-engine[data-engine="${engine}"]`);
  await expect(panel).not.toHaveAttribute('data-verdict', /.+/);
  await panel.locator('.pl-skip').click();
  await panel.locator('.pl-reveal').click();
  await expect(panel).toHaveAttribute('data-verdict', said);
  return { tool, input, said };
}

test('lint findings in zh: an OpenCode config, the headline, the wording, a call loaded and confirmed', async ({ page, problems }) => {
  const w = await widget(page, 'zh');
  await paste(w, corpus('opencode/016.json'));
  await expect(w.locator('.pl-findings-headline')).toHaveText('你的配置里有 2 处问题');
  await expect(w.locator('.pl-findings-headline')).toHaveAttribute('data-count', '2');
  const findings = w.locator('.pl-finding');
  await expect(findings).toHaveCount(2);
  await expect(findings.first()).toHaveAttribute('data-kind', 'no-space-star');
  await expect(findings.first()).toHaveAttribute('data-harness', 'opencode');
  await expect(findings.first().locator('.pl-finding-message')).toContainText('只命中一字不差的命令 dotnet build');
  await expect(findings.first().locator('.pl-finding-rule')).toContainText('行 16:7');
  const got = await loadAndCheck(w, 0, 'opencode');
  expect(got).toEqual({ tool: 'bash', input: 'dotnet build --verbose', said: 'ask' });
  await expect(findings.first().locator('.pl-finding-verdict')).toHaveText('OpenCode 对 bash: dotnet build --verbose 的裁决:问人');
  await expect(findings.first().locator('.pl-finding-fix')).toContainText('"dotnet build *": "allow"');
  await w.locator('.pl-findings').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('lint-import-zh'), fullPage: true });
  expect(problems).toEqual([]);
});

test('lint findings in en: a Claude Code config, worded in English, a call loaded and confirmed', async ({ page, problems }) => {
  const w = await widget(page, 'en');
  await paste(w, corpus('claude/036.json'));
  await expect(w.locator('.pl-findings-headline')).toHaveText('Your config has 4 problems');
  const findings = w.locator('.pl-finding');
  await expect(findings).toHaveCount(4);
  await expect(findings.first()).toHaveAttribute('data-kind', 'wrapper-bypass');
  await expect(findings.first().locator('.pl-finding-message')).toContainText('matches the command text as written, not what runs');
  await expect(findings.first().locator('.pl-finding-rule')).toContainText('line 19:7');
  const got = await loadAndCheck(w, 0, 'claude-code');
  expect(got).toEqual({ tool: 'bash', input: "sh -c 'rm -rf'", said: 'ask' });
  await expect(findings.first().locator('.pl-finding-verdict')).toHaveText("Claude Code's verdict on Bash: sh -c 'rm -rf': ask");
  await w.locator('.pl-findings').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('lint-import-en'), fullPage: true });
  expect(problems).toEqual([]);
});

test('lint findings of a Codex .rules file (read and linted by the worker), zh', async ({ page, problems }) => {
  const w = await widget(page, 'zh');
  await paste(w, corpus('codex/020.rules'));
  await expect(w.locator('.pl-findings-headline')).toHaveText('你的配置里有 2 处问题');
  await expect(w.locator('.pl-finding').first()).toHaveAttribute('data-kind', 'flag-after-prefix');
  await expect(w.locator('.pl-finding-message').first()).toContainText('--hard 只有紧跟在 git reset 后面才会被抓到');
  const got = await loadAndCheck(w, 0, 'codex');
  expect(got.input).toBe('git reset origin --hard');
  expect(problems).toEqual([]);
});

test('a clean config shows no findings, in zh and en', async ({ page, problems }) => {
  const clean = '{"permission": {"bash": {"*": "ask", "rm *": "deny", "git status *": "allow"}}}';
  for (const [lang, headline] of [['zh', '你的配置里没有发现问题'], ['en', 'No problems found in your config']]) {
    const w = await widget(page, lang);
    await paste(w, clean);
    await expect(w.locator('.pl-findings-headline')).toHaveText(headline);
    await expect(w.locator('.pl-findings-headline')).toHaveAttribute('data-count', '0');
    await expect(w.locator('.pl-finding')).toHaveCount(0);
  }
  expect(problems).toEqual([]);
});

// The seed 001 lesson of the table widget shows the /usr/bin/curl drift with both
// answers and the version, once Claude Code's verdict is revealed, in zh and en.
for (const [lang, text] of [
  ['zh', '文档与实测不一致: 文档:放行 · CLI 2.1.332 实测:拒绝'],
  ['en', 'The docs and the real CLI disagree: docs: allow · CLI 2.1.332: deny'],
]) {
  test(`the seed 001 lesson shows the /usr/bin/curl drift, ${lang}`, async ({ page, problems }) => {
    await page.goto('./');
    await expect(page.locator('tbody.pl-rules tr').first()).toBeVisible();
    const lesson = readFileSync(resolve(repo, 'fixtures/lessons/claude-code-settings.json'), 'utf8');
    const calls = JSON.parse(lesson).presets[0].calls;
    const i = calls.findIndex((c) => c.input === '/usr/bin/curl https://example.com');
    expect(i).toBeGreaterThan(-1);
    await page.evaluate(([lesson, lang]) => {
      const div = document.createElement('div');
      div.id = 'drift-lesson';
      div.dataset.lang = lang;
      document.body.append(div);
      window.wasmBindings.mount(div, lesson);
    }, [lesson, lang]);
    const w = page.locator('#drift-lesson');
    await expect(w.locator('tbody.pl-rules tr').first()).toBeVisible();
    await w.locator('.pl-call-select').selectOption(String(i));
    await expect(w.locator('.pl-call-now .pl-call-input')).toHaveText('/usr/bin/curl https://example.com');
    const panel = w.locator('.pl-engine[data-engine="claude-code"]');
    // Nothing before the reveal.
    await expect(panel.locator('.pl-drift')).toHaveCount(0);
    await panel.locator('.pl-skip').click();
    await panel.locator('.pl-reveal').click();
    await expect(panel).toHaveAttribute('data-verdict', 'deny');
    const drift = panel.locator('.pl-drift');
    await expect(drift).toHaveText(text);
    await expect(drift).toHaveAttribute('data-docs', 'allow');
    await expect(drift).toHaveAttribute('data-cli', 'deny');
    await expect(drift).toHaveAttribute('data-case', 'seed001-usr-bin-curl');
    // Another call of the lesson with no recorded drift has no line.
    const j = calls.findIndex((c) => c.input === 'git push origin main');
    await w.locator('.pl-call-select').selectOption(String(j));
    await expect(w.locator('.pl-call-now .pl-call-input')).toHaveText('git push origin main');
    await expect(w.locator('.pl-drift')).toHaveCount(0);
    await panel.scrollIntoViewIfNeeded();
    if (lang === 'en') await page.screenshot({ path: screenshotPath('lesson-drift-en'), fullPage: true });
    expect(problems).toEqual([]);
  });
}
