//! The words of the state notes ([`crate::persist::store::Note`]), in both languages: what the learner
//! reads when stored state was ignored, a link was too long, or a text is too big to keep.

use crate::persist::store::{Field, Note, Problem, FIELD_LIMIT, HASH_LIMIT};
use crate::text::i18n::Lang;

/// `n` bytes as KB or MB, two decimals, rounded up: a text just over a limit never reads as
/// the limit itself ("2.01 MB, over 2 MB").
fn size(n: usize) -> String {
    let (unit, name) = if n >= 1024 * 1024 {
        (1024.0 * 1024.0, "MB")
    } else {
        (1024.0, "KB")
    };
    format!("{:.2} {name}", (n as f64 / unit * 100.0).ceil() / 100.0)
}

/// A limit in whole MB or KB.
fn limit(n: usize) -> String {
    if n >= 1024 * 1024 {
        format!("{} MB", n / (1024 * 1024))
    } else {
        format!("{} KB", n / 1024)
    }
}

impl Lang {
    /// A field's name in a note.
    pub fn field(self, f: &Field) -> String {
        let zh = self == Lang::Zh;
        match f {
            Field::Tool => if zh {
                "调用的工具"
            } else {
                "the call's tool"
            }
            .into(),
            Field::Input => if zh {
                "调用的输入"
            } else {
                "the call's input"
            }
            .into(),
            Field::Editor => if zh {
                "规则表编辑框"
            } else {
                "the table editor"
            }
            .into(),
            Field::Import => if zh { "导入框" } else { "the import panel" }.into(),
            Field::Custom => if zh {
                "应用的规则表"
            } else {
                "the applied table"
            }
            .into(),
            // The key (`command`, `trace`) is the store's, not a word for the learner.
            Field::Scene(_) => if zh {
                "这个场景的输入框"
            } else {
                "this scene's field"
            }
            .into(),
        }
    }

    /// What a state note says.
    pub fn state_note(self, n: &Note) -> String {
        let zh = self == Lang::Zh;
        match n {
            Note::Ignored(p) => {
                let why = match (p, zh) {
                    (Problem::Foreign(o), true) => format!("它属于另一个组件(“{o}”)"),
                    (Problem::Foreign(o), false) => format!("it belongs to another widget (“{o}”)"),
                    (Problem::Version(v), true) => format!("它是别的版本写的(格式 {v})"),
                    (Problem::Version(v), false) => {
                        format!("another version wrote it (format {v})")
                    }
                    (Problem::Corrupt(at), true) => format!("它被改坏了(第 {at} 字节读不下去)"),
                    (Problem::Corrupt(at), false) => {
                        format!("it is damaged (unreadable from byte {at})")
                    }
                    (Problem::TooLong(b), true) => format!("它太大了({})", size(*b)),
                    (Problem::TooLong(b), false) => format!("it is too large ({})", size(*b)),
                };
                if zh {
                    format!("上次保存的状态用不了,{why}:已忽略,从头开始。")
                } else {
                    format!("The saved state could not be used: {why}. It was ignored; starting afresh.")
                }
            }
            Note::HashTooLong(b) => {
                if zh {
                    format!(
                        "这个链接里的状态太长({},上限 {}),没有读取:从头开始。",
                        size(*b),
                        limit(HASH_LIMIT)
                    )
                } else {
                    format!(
                        "The state in this link is too long ({}, limit {}) and was not read: starting afresh.",
                        size(*b),
                        limit(HASH_LIMIT)
                    )
                }
            }
            Note::NotKept(f, b) => {
                if zh {
                    format!(
                        "{}的内容有 {},超过 {}:页面开着时都在,但重新加载后不会保留。",
                        self.field(f),
                        size(*b),
                        limit(FIELD_LIMIT)
                    )
                } else {
                    format!(
                        "The text in {} is {}, over {}: it stays while the page is open but is not kept across a reload.",
                        self.field(f),
                        size(*b),
                        limit(FIELD_LIMIT)
                    )
                }
            }
            Note::SameId { id, count, key } => {
                if zh {
                    format!("给页面作者:本页有 {count} 个组件的 id 都是 “{id}”。状态按 id 保存,为了不互相覆盖,这个组件改用 “{key}” 保存;请给每个组件一个不同的 id。")
                } else {
                    format!("For the page's author: {count} widgets on this page have the id “{id}”. State is kept by id, so this one keeps its own under “{key}” and none overwrites another's; give each widget a different id.")
                }
            }
            Note::NoId { scene, count, key } => {
                if zh {
                    format!("给页面作者:本页有 {count} 个 “{scene}” 场景都没有 id。状态按 id 保存,为了不互相覆盖,这个场景改用 “{key}” 保存;请给每个场景一个不同的 id。")
                } else {
                    format!("For the page's author: {count} “{scene}” scenes on this page have no id. State is kept by id, so this one keeps its own under “{key}” and none overwrites another's; give each scene a different id.")
                }
            }
            Note::StorageRefused => {
                if zh {
                    "浏览器不让保存(存储已满或被禁用):页面开着时内容都在,重新加载后不会保留。"
                        .into()
                } else {
                    "The browser refused to save (storage full or disabled): everything stays while the page is open, not across a reload.".into()
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_note_is_worded_in_both_languages() {
        let notes = [
            Note::Ignored(Problem::Foreign("b".into())),
            Note::Ignored(Problem::Version("0".into())),
            Note::Ignored(Problem::Corrupt(3)),
            Note::Ignored(Problem::TooLong(20 << 20)),
            Note::HashTooLong(1_900_000),
            Note::NotKept(Field::Import, 3 << 20),
            Note::NotKept(Field::Scene("命令".into()), 3 << 20),
            Note::StorageRefused,
            Note::SameId {
                id: "twin".into(),
                count: 2,
                key: "twin~2".into(),
            },
            Note::NoId {
                scene: "timeline".into(),
                count: 2,
                key: "scene-timeline~2".into(),
            },
        ];
        for n in &notes {
            let zh = Lang::Zh.state_note(n);
            let en = Lang::En.state_note(n);
            assert!(
                zh.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{zh}"
            );
            assert!(
                !en.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{en}"
            );
        }
        assert_eq!(
            Lang::En.state_note(&Note::HashTooLong(1_900_000)),
            "The state in this link is too long (1.82 MB, limit 64 KB) and was not read: starting afresh."
        );
        assert!(Lang::Zh
            .state_note(&Note::NotKept(Field::Import, 3 << 20))
            .contains("3.00 MB"));
        assert!(Lang::En
            .state_note(&Note::NotKept(Field::Import, FIELD_LIMIT + 10))
            .contains("is 2.01 MB, over 2 MB"));
    }
}
