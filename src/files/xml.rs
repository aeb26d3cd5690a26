//! A minimal XML element tree (quick-xml): enough of JML to read it, with every element's
//! byte offsets so readers can point at the element at fault.

use quick_xml::escape::resolve_predefined_entity;
use quick_xml::events::{BytesStart, Event};
use quick_xml::Reader;

use super::error::{FileError, Location};

/// A minimal XML element tree: enough of JML to import it.
#[derive(Debug)]
pub(crate) struct Element {
    pub(crate) name: String,
    pub(crate) attrs: Vec<(String, String)>,
    pub(crate) children: Vec<Element>,
    /// Concatenated text and CDATA content (entities resolved), not including children's.
    pub(crate) text: String,
    /// Byte offset of the element's `<` in the source.
    pub(crate) offset: usize,
    /// Byte offset just after the element's end tag (or empty tag).
    pub(crate) end: usize,
}

impl Element {
    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    pub(crate) fn child(&self, name: &str) -> Option<&Element> {
        self.children.iter().find(|c| c.name == name)
    }
}

/// Deepest element nesting accepted (JML needs 5; the limit keeps the tree's drop shallow).
const MAX_DEPTH: usize = 64;

/// The element tree of `text` (`origin` names it in errors): one root, nested at most
/// 64 deep, entities and character references resolved.
pub(crate) fn parse_tree(text: &str, origin: &str) -> Result<Element, FileError> {
    let xml_error = |offset: usize, message: String| FileError::Xml {
        at: Location::of_offset(origin, text, offset),
        message,
    };
    // A UTF-8 byte-order mark is skipped here, so the reader's positions are counted from
    // after it and shifted back: offsets stay those of `text` (quick-xml skips a BOM without
    // counting it, which put every location 3 bytes early).
    let (body, shift) = match text.strip_prefix('\u{feff}') {
        Some(rest) => (rest, text.len() - rest.len()),
        None => (text, 0),
    };
    let pos = |p: u64| p as usize + shift;
    let mut reader = Reader::from_str(body);
    let config = reader.config_mut();
    config.trim_text(true);
    config.check_end_names = true;
    let mut stack: Vec<Element> = Vec::new();
    let mut root: Option<Element> = None;
    loop {
        let before = pos(reader.buffer_position());
        // The element starts at the first non-blank byte after the previous event.
        let start = before
            + text
                .get(before..)
                .map_or(0, |rest| rest.len() - rest.trim_start().len());
        let event = reader
            .read_event()
            .map_err(|e| xml_error(pos(reader.error_position()), format!("malformed XML: {e}")))?;
        match event {
            Event::Start(tag) => {
                if stack.len() >= MAX_DEPTH {
                    return Err(xml_error(
                        start,
                        format!("elements nested more than {MAX_DEPTH} deep"),
                    ));
                }
                stack.push(element(&tag, start, &xml_error)?)
            }
            Event::Empty(tag) => {
                let mut el = element(&tag, start, &xml_error)?;
                el.end = pos(reader.buffer_position());
                attach(&mut stack, &mut root, el, &xml_error)?;
            }
            Event::End(_) => {
                // check_end_names guarantees the end matches the open element.
                if let Some(mut el) = stack.pop() {
                    el.end = pos(reader.buffer_position());
                    attach(&mut stack, &mut root, el, &xml_error)?;
                }
            }
            Event::Text(t) => {
                let s = t
                    .decode()
                    .map_err(|e| xml_error(start, format!("bad text: {e}")))?;
                append_text(&mut stack, &s);
            }
            Event::CData(t) => {
                let s = t
                    .decode()
                    .map_err(|e| xml_error(start, format!("bad CDATA: {e}")))?;
                append_text(&mut stack, &s);
            }
            Event::GeneralRef(r) => {
                let resolved = match r.resolve_char_ref() {
                    Ok(Some(c)) => c.to_string(),
                    Ok(None) => {
                        let name = r
                            .decode()
                            .map_err(|e| xml_error(start, format!("bad entity: {e}")))?;
                        resolve_predefined_entity(&name)
                            .ok_or_else(|| xml_error(start, format!("unknown entity '&{name};'")))?
                            .to_string()
                    }
                    Err(e) => {
                        return Err(xml_error(start, format!("bad character reference: {e}")))
                    }
                };
                append_text(&mut stack, &resolved);
            }
            Event::Eof => break,
            Event::Comment(_) | Event::Decl(_) | Event::PI(_) | Event::DocType(_) => {}
        }
    }
    if let Some(open) = stack.last() {
        return Err(xml_error(
            text.len(),
            format!("element <{}> is never closed", open.name),
        ));
    }
    root.ok_or_else(|| xml_error(0, "no XML element found".into()))
}

fn append_text(stack: &mut [Element], s: &str) {
    if let Some(top) = stack.last_mut() {
        top.text.push_str(s);
    }
}

fn element(
    tag: &BytesStart<'_>,
    offset: usize,
    xml_error: &dyn Fn(usize, String) -> FileError,
) -> Result<Element, FileError> {
    let name = String::from_utf8_lossy(tag.name().as_ref()).into_owned();
    let mut attrs = Vec::new();
    // quick-xml's own check for repeated attributes compares each with all before it
    // (quadratic: 50 000 attributes took 5 s); a set does it in linear time.
    let mut keys = std::collections::HashSet::new();
    for attr in tag.attributes().with_checks(false) {
        let attr =
            attr.map_err(|e| xml_error(offset, format!("bad attribute in <{name}>: {e}")))?;
        let key = String::from_utf8_lossy(attr.key.as_ref()).into_owned();
        if !keys.insert(key.clone()) {
            return Err(xml_error(
                offset,
                format!("bad attribute in <{name}>: '{key}' is given twice"),
            ));
        }
        let value = attr
            .unescape_value()
            .map_err(|e| {
                xml_error(
                    offset,
                    format!("bad value of attribute '{key}' in <{name}>: {e}"),
                )
            })?
            .into_owned();
        attrs.push((key, value));
    }
    Ok(Element {
        name,
        attrs,
        children: Vec::new(),
        text: String::new(),
        offset,
        end: offset,
    })
}

fn attach(
    stack: &mut [Element],
    root: &mut Option<Element>,
    el: Element,
    xml_error: &dyn Fn(usize, String) -> FileError,
) -> Result<(), FileError> {
    if let Some(parent) = stack.last_mut() {
        parent.children.push(el);
        Ok(())
    } else if root.is_some() {
        Err(xml_error(
            el.offset,
            format!("second root element <{}>", el.name),
        ))
    } else {
        *root = Some(el);
        Ok(())
    }
}
