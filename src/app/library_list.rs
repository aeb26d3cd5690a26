//! The searchable list of the pattern library (`files::library`): every pattern with its file,
//! filtered by what the user types, with a selection and a scroll position. Plain data, no
//! drawing: the window draws [`LibraryList::visible`] and hit-tests rows with the geometry.
//!
//! Filtering: the search text is compared case-insensitively with `-`, `_` and spaces alike
//! (`files::library::normalize`); every word of it must occur in the pattern's name, siteswap
//! or file stem. Patterns whose name starts with the search come first, then the others in
//! library order (file by file).

use crate::files::library::{normalize, LibraryFile};

/// One pattern of the library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryItem {
    /// Index of its file in the library's files.
    pub file: usize,
    /// Index of the pattern in its file.
    pub index: usize,
    pub name: String,
    pub notation: String,
    /// The file's stem (`cascades`).
    pub group: String,
    /// Normalized name, for ranking.
    key_name: String,
    /// Normalized name, notation and group, for matching.
    key_all: String,
}

/// The list as the user sees it: search text, matching items, selection, scroll.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LibraryList {
    items: Vec<LibraryItem>,
    search: String,
    /// Indices into `items` of the items matching the search, in display order.
    matches: Vec<usize>,
    /// Index into `matches` of the selected row.
    selected: usize,
    /// Index into `matches` of the first row shown.
    scroll: usize,
    /// Rows that fit in the panel (set from the layout every frame; at least 1).
    pub rows: usize,
}

impl LibraryList {
    /// The list of every pattern of `files`, unfiltered, first row selected.
    pub fn new(files: &[LibraryFile]) -> Self {
        let mut items = Vec::new();
        for (f, file) in files.iter().enumerate() {
            for (i, p) in file.patterns.iter().enumerate() {
                let name = p.spec.name.clone();
                let notation = p.spec.source.text().to_string();
                let group = file.stem().to_string();
                items.push(LibraryItem {
                    file: f,
                    index: i,
                    key_name: normalize(&name),
                    key_all: normalize(&format!("{name} {notation} {group}")),
                    name,
                    notation,
                    group,
                });
            }
        }
        let mut list = LibraryList {
            items,
            search: String::new(),
            matches: Vec::new(),
            selected: 0,
            scroll: 0,
            rows: 10,
        };
        list.refilter();
        list
    }

    /// The search text as typed.
    pub fn search(&self) -> &str {
        &self.search
    }

    /// Every pattern of the library.
    pub fn len(&self) -> usize {
        self.items.len()
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The patterns matching the search, in display order.
    pub fn matching(&self) -> impl Iterator<Item = &LibraryItem> {
        self.matches.iter().map(|&i| &self.items[i])
    }

    /// How many patterns match the search.
    pub fn match_count(&self) -> usize {
        self.matches.len()
    }

    /// Types a character into the search (control characters are ignored).
    pub fn insert(&mut self, c: char) {
        if !c.is_control() {
            self.search.push(c);
            self.refilter();
        }
    }

    /// Deletes the last character of the search.
    pub fn backspace(&mut self) {
        if self.search.pop().is_some() {
            self.refilter();
        }
    }

    /// Replaces the search text.
    pub fn set_search(&mut self, text: &str) {
        self.search = text.chars().filter(|c| !c.is_control()).collect();
        self.refilter();
    }

    fn refilter(&mut self) {
        let wanted = normalize(&self.search);
        let words: Vec<&str> = wanted.split(' ').filter(|w| !w.is_empty()).collect();
        let mut first = Vec::new();
        let mut rest = Vec::new();
        for (i, item) in self.items.iter().enumerate() {
            if words.iter().all(|w| item.key_all.contains(w)) {
                if !wanted.is_empty() && item.key_name.starts_with(&wanted) {
                    first.push(i);
                } else {
                    rest.push(i);
                }
            }
        }
        first.extend(rest);
        self.matches = first;
        self.selected = 0;
        self.scroll = 0;
    }

    /// Moves the selection by `rows` (negative = up), stopping at the ends, and scrolls so it
    /// stays in view.
    pub fn move_selection(&mut self, rows: i32) {
        if self.matches.is_empty() {
            return;
        }
        let last = self.matches.len() - 1;
        let target = self.selected as i64 + i64::from(rows);
        self.selected = target.clamp(0, last as i64) as usize;
        self.keep_selection_in_view();
    }

    /// Scrolls by `rows` without moving the selection (the wheel, a touch drag).
    pub fn scroll_by(&mut self, rows: i32) {
        let max = self.matches.len().saturating_sub(self.rows.max(1));
        let target = self.scroll as i64 + i64::from(rows);
        self.scroll = target.clamp(0, max as i64) as usize;
    }

    fn keep_selection_in_view(&mut self) {
        let rows = self.rows.max(1);
        if self.selected < self.scroll {
            self.scroll = self.selected;
        } else if self.selected >= self.scroll + rows {
            self.scroll = self.selected + 1 - rows;
        }
    }

    /// Selects the `row`-th row shown (0 = the first visible one), if there is one.
    pub fn select_row(&mut self, row: usize) {
        let i = self.scroll + row;
        if i < self.matches.len() {
            self.selected = i;
        }
    }

    /// The selected pattern, if any matches.
    pub fn selected_item(&self) -> Option<LibraryItem> {
        self.matches
            .get(self.selected)
            .map(|&i| self.items[i].clone())
    }

    /// The rows shown: `(item, selected)` for at most [`LibraryList::rows`] rows from the
    /// scroll position.
    pub fn visible(&self) -> impl Iterator<Item = (&LibraryItem, bool)> {
        self.matches
            .iter()
            .enumerate()
            .skip(self.scroll)
            .take(self.rows.max(1))
            .map(|(k, &i)| (&self.items[i], k == self.selected))
    }

    /// Index of the first row shown among the matches.
    pub fn first_shown(&self) -> usize {
        self.scroll
    }

    /// Sets how many rows fit, keeping the selection in view.
    pub fn set_rows(&mut self, rows: usize) {
        if rows.max(1) != self.rows {
            self.rows = rows.max(1);
            self.keep_selection_in_view();
        }
    }

    /// Selects the item of library file `file`, pattern `index`, when it is shown (after a
    /// pattern of the list was played, so the list follows PageDown/PageUp).
    pub fn select_item(&mut self, file: usize, index: usize) {
        if let Some(k) = self
            .matches
            .iter()
            .position(|&i| self.items[i].file == file && self.items[i].index == index)
        {
            self.selected = k;
            self.keep_selection_in_view();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::library::Library;

    fn list() -> LibraryList {
        LibraryList::new(&Library::embedded().files)
    }

    fn names(l: &LibraryList) -> Vec<String> {
        l.visible().map(|(item, _)| item.name.clone()).collect()
    }

    #[test]
    fn lists_every_pattern_of_the_embedded_library() {
        let library = Library::embedded();
        let total: usize = library.files.iter().map(|f| f.patterns.len()).sum();
        let l = LibraryList::new(&library.files);
        assert_eq!((l.len(), l.match_count()), (total, total));
        assert!(total > 100, "{total}");
        // Library order: the first file's first pattern is selected.
        let first = l.selected_item().unwrap();
        assert_eq!((first.file, first.index), (0, 0));
        assert_eq!(first.name, library.files[0].patterns[0].spec.name);
    }

    #[test]
    fn typing_filters_by_every_word_and_ranks_name_prefixes_first() {
        let mut l = list();
        for c in "mills".chars() {
            l.insert(c);
        }
        assert!(l.match_count() >= 1);
        assert!(
            names(&l)[0].to_lowercase().starts_with("mills"),
            "{:?}",
            names(&l)
        );
        assert!(l
            .visible()
            .all(|(i, _)| i.name.to_lowercase().contains("mills")));
        // Words in any order, `-` and spaces alike, case ignored.
        l.set_search("REVENGE rubenstein's");
        assert_eq!(names(&l), vec!["Rubenstein's Revenge"]);
        l.set_search("high low");
        assert!(
            names(&l).iter().any(|n| n == "High-low shower"),
            "{:?}",
            names(&l)
        );
        // The siteswap and the file stem match too.
        l.set_search("(4,4)");
        assert!(l.visible().all(|(i, _)| i.notation.contains("(4,4)")));
        assert!(l.match_count() >= 1);
        l.set_search("tricks5");
        assert!(l.match_count() > 0 && l.visible().all(|(i, _)| i.group == "tricks5"));
        l.set_search("no such pattern anywhere");
        assert_eq!((l.match_count(), l.selected_item()), (0, None));
        l.backspace();
        l.set_search("");
        assert_eq!(l.match_count(), l.len());
    }

    #[test]
    fn selection_moves_clamps_and_stays_in_view() {
        let mut l = list();
        l.set_rows(5);
        l.move_selection(-3);
        assert_eq!(l.selected, 0);
        l.move_selection(7);
        assert_eq!((l.selected, l.first_shown()), (7, 3));
        assert_eq!(l.visible().filter(|(_, s)| *s).count(), 1);
        l.move_selection(-6);
        assert_eq!((l.selected, l.first_shown()), (1, 1));
        l.move_selection(100_000);
        assert_eq!(l.selected, l.len() - 1);
        assert_eq!(l.first_shown(), l.len() - 5);
        // Scrolling does not move the selection and stops at the ends.
        l.scroll_by(-3);
        assert_eq!((l.selected, l.first_shown()), (l.len() - 1, l.len() - 8));
        l.scroll_by(-100_000);
        assert_eq!(l.first_shown(), 0);
        l.scroll_by(100_000);
        assert_eq!(l.first_shown(), l.len() - 5);
    }

    #[test]
    fn rows_are_picked_relative_to_the_scroll() {
        let mut l = list();
        l.set_rows(4);
        l.scroll_by(10);
        l.select_row(2);
        let item = l.selected_item().unwrap();
        let expected = list().matches[12];
        assert_eq!(item, list().items[expected]);
        // A row past the end selects nothing new.
        l.set_search("mills mess");
        let before = l.selected_item();
        l.select_row(50);
        assert_eq!(l.selected_item(), before);
        // Following an item played elsewhere.
        let mut l = list();
        l.set_rows(3);
        let target = l.items[40].clone();
        l.select_item(target.file, target.index);
        assert_eq!(l.selected_item(), Some(target));
        assert!(l.first_shown() <= 40 && 40 < l.first_shown() + 3);
    }
}
