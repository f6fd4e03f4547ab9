//! # permlab-widget
//!
//! The lesson widget: Leptos (CSR) components over `permlab-core`. Every verdict, match and
//! cursor position comes from the core; this crate only presents them.

#![forbid(unsafe_code)]

pub mod hash;
pub mod state;

use leptos::prelude::*;
use permlab_core::{Action, Call, RuleTable};

/// The lesson's rule table (seed 000, miniagent `configs/rules-standard.json`).
const MINIAGENT: &str = include_str!("../../../fixtures/rulesets/miniagent-standard.json");

/// The call seed 000 starts from: the test command of the real run.
const FIRST_CALL: &str = "bash: python -m unittest -v test_dateparse.py";

/// The page language: Chinese first (the course's language), English on request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// 简体中文
    Zh,
    /// English
    En,
}

impl Lang {
    /// `zh*` → Chinese, `en*` → English, anything else → Chinese (the course's language).
    pub fn from_tag(tag: &str) -> Lang {
        if tag.to_ascii_lowercase().starts_with("en") {
            Lang::En
        } else {
            Lang::Zh
        }
    }

    fn action(self, a: Action) -> &'static str {
        match (self, a) {
            (Lang::Zh, Action::Allow) => "放行",
            (Lang::Zh, Action::Ask) => "问人",
            (Lang::Zh, Action::Deny) => "拒绝",
            (Lang::En, Action::Allow) => "allow",
            (Lang::En, Action::Ask) => "ask",
            (Lang::En, Action::Deny) => "deny",
        }
    }

    fn text(self, key: &str) -> &'static str {
        match (self, key) {
            (Lang::Zh, "caption") => "规则表(miniagent rules-standard.json)",
            (Lang::En, "caption") => "Rule table (miniagent rules-standard.json)",
            (Lang::Zh, "tool") => "工具",
            (Lang::En, "tool") => "Tool",
            (Lang::Zh, "pattern") => "模式",
            (Lang::En, "pattern") => "Pattern",
            (Lang::Zh, "action") => "动作",
            (Lang::En, "action") => "Action",
            (Lang::Zh, "call") => "调用",
            (Lang::En, "call") => "Call",
            (Lang::Zh, "error") => "规则表无法读取",
            (Lang::En, "error") => "The rule table cannot be read",
            _ => "",
        }
    }
}

/// The widget's root: one rule table and one call.
#[component]
pub fn App(lang: Lang) -> impl IntoView {
    let table = RuleTable::from_json(MINIAGENT);
    let call = Call::parse(FIRST_CALL).expect("the built-in call is well-formed");
    view! {
        <section class="pl-widget" lang=if lang == Lang::Zh { "zh-CN" } else { "en" }>
            {match table {
                Ok(table) => view! { <RuleTableView table lang/> }.into_any(),
                Err(e) => view! {
                    <p class="pl-error" role="alert">{lang.text("error")}": "{e.to_string()}</p>
                }.into_any(),
            }}
            <p class="pl-call">
                <span class="pl-call-label">{lang.text("call")}</span>
                <code class="pl-call-tool">{call.tool.clone()}</code>
                <code class="pl-call-input">{call.input.clone()}</code>
            </p>
        </section>
    }
}

/// The rule table as the learner sees it: `#`, tool, pattern, action.
#[component]
fn RuleTableView(table: RuleTable, lang: Lang) -> impl IntoView {
    let rows = table
        .rules()
        .iter()
        .enumerate()
        .map(|(i, rule)| {
            let action = rule.action;
            view! {
                <tr class="pl-rule" data-rule-id=rule.id.0.to_string() data-position=(i + 1).to_string()>
                    <td class="pl-pos">{i + 1}</td>
                    <td class="pl-tool"><code>{rule.tool.clone()}</code></td>
                    <td class="pl-pattern"><code>{rule.pattern.clone()}</code></td>
                    <td class=format!("pl-action pl-action-{}", action.as_str())>{lang.action(action)}</td>
                </tr>
            }
        })
        .collect_view();
    view! {
        <table class="pl-table">
            <caption>{lang.text("caption")}</caption>
            <thead>
                <tr>
                    <th scope="col">"#"</th>
                    <th scope="col">{lang.text("tool")}</th>
                    <th scope="col">{lang.text("pattern")}</th>
                    <th scope="col">{lang.text("action")}</th>
                </tr>
            </thead>
            <tbody>{rows}</tbody>
        </table>
    }
}
