//! Data flows one way: a module of the library uses only modules of earlier stages
//! (ARCHITECTURE.md). Read from the sources: every `crate::module` a module's product code
//! names (its unit tests excluded) must come before it in `ORDER`.

use std::path::Path;

/// The stages, first to last.
const ORDER: &[&str] = &[
    "types", "budget", "text", "notation", "schedule", "tools", "settings", "layout", "motion",
    "spec", "body", "files", "scene", "sound", "render", "convert", "export", "app",
];

/// The product code of a source file: without a trailing `#[cfg(test)] mod ...` block.
fn product_code(text: &str) -> &str {
    let mut end = text.len();
    let mut from = 0;
    while let Some(found) = text[from..].find("#[cfg(test)]") {
        let at = from + found;
        let rest = text[at + "#[cfg(test)]".len()..].trim_start();
        if rest.starts_with("mod ") || rest.starts_with("pub(crate) mod ") {
            end = at;
            break;
        }
        from = at + 1;
    }
    &text[..end]
}

/// The top-level modules `text` names as `crate::module` in code (not in comments).
fn used_modules(text: &str) -> Vec<String> {
    let text: String = text
        .lines()
        .map(|line| line.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n");
    let mut used = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        // Not part of a longer path such as `juggler_crate::`.
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let name: String = text[at + "crate::".len()..]
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if !name.is_empty() && !used.contains(&name) {
            used.push(name);
        }
    }
    used
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn no_module_uses_a_later_stage() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut checked = 0;
    let mut wrong = Vec::new();
    for file in &files {
        let relative = file.strip_prefix(&src).unwrap();
        let module = relative
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy()
            .trim_end_matches(".rs")
            .to_string();
        let name = file.file_name().unwrap().to_string_lossy();
        if name == "tests.rs" || name == "proptests.rs" || relative.starts_with("tests") {
            continue;
        }
        // The binary's edge (cli, main.rs) and lib.rs may use everything.
        let Some(stage) = ORDER.iter().position(|m| *m == module) else {
            assert!(
                ["cli", "main", "lib"].contains(&module.as_str()),
                "{}: module '{module}' is not in the stage order",
                relative.display()
            );
            continue;
        };
        checked += 1;
        let text = std::fs::read_to_string(file).unwrap();
        for used in used_modules(product_code(&text)) {
            match ORDER.iter().position(|m| *m == used) {
                Some(u) if u > stage => wrong.push(format!(
                    "{} ({module}) uses crate::{used}, a later stage",
                    relative.display()
                )),
                _ => {}
            }
        }
    }
    assert!(checked > 100, "only {checked} files read");
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_checker_sees_later_stages_and_skips_unit_tests() {
    let text =
        "use crate::motion::Motion;\n//! see crate::app\nfn f() { crate::types::Hand::Left; }\n\
                #[cfg(test)]\nmod tests {\n use crate::app::x;\n}\n";
    assert_eq!(used_modules(product_code(text)), ["motion", "types"]);
    assert_eq!(used_modules("juggler_crate::app"), Vec::<String>::new());
}
