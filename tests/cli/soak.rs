//! CLI fuzz/soak test (issues 15, 27): random arguments and random file contents (TOML, JML
//! lists and event patterns with symmetries, JIF, .txt) through every command (`gen` and
//! `trans` arguments, every settings key in settings strings and TOML), within a time budget.
//! Every run has an address-space cap ([`MEMORY_CAP_BYTES`], `prlimit --as`) and must end
//! with exit code 0, 1 or 2 (never 101 = panic, 134 = abort or a failed allocation over the
//! cap, or a signal), print no NaN in JSON, and leave nothing behind but the output it
//! reports having written. Standard output is read up to 1 MiB and then closed, so long
//! listings (`gen`) also meet a closed pipe and must end cleanly.
//!
//! Budget: `JUGGLER_SOAK_SECONDS` (default 20 s); seed: `JUGGLER_SOAK_SEED` (default fixed,
//! so a failure reproduces; the failing command line and files are printed).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// SplitMix64: small, fast and good enough to pick fuzz inputs.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

const SITESWAPS: &[&str] = &[
    "3",
    "531",
    "441",
    "(4,2x)*",
    "[54]24",
    "<3p|3p>",
    "<3p 3|3p 3>",
    "5B",
    "3B",
    "(6x,2x)*",
    "b97531",
    "51",
    "0",
    "00",
    "1",
    "2",
    "330",
    "(4,4)(1)",
    "24[54]",
    "7",
    "9",
    "([44],[44])",
    "5/5/5/1/4",
    "L3",
    "3R",
    "532",
    "(4,2x)",
    "3(",
    "[",
    "<3p|",
    "3?",
    "(3^1000)",
    "([4444]^25001)",
    "((3^1000)^100)",
    "zzz",
    "abc",
    "3x",
    "pattern=531;bps=4",
    "pattern=3;dwell=1.9;gravity=500",
    "pattern=441;prop=club;colors=mixed",
    "pattern=3;bps=1e-308",
    "pattern=3;gravity=1e308",
    "pattern=3;hands=(10)(32.5).(10)(32.5).",
    "pattern=3;body=<(0,0,0)>",
    "bps=3",
    "pattern=",
    "cascade",
    "Mills Mess",
    "mills-mess",
    "Rubenstein's Revenge",
    "tricks3",
    "box",
    "",
    " ",
    "3\u{1b}[2J",
    "3\r\n",
    "\u{feff}3",
    "ï",
    "-3",
    "--",
    "'",
    "\"",
    "3 3 3",
];

/// Every settings-string key (`settings::keys::KEYS`) and values of every form, hostile ones
/// among them (sizes over the budget, bad numbers, wrong forms).
const STRING_KEYS: &[&str] = &[
    "jugglers",
    "title",
    "bps",
    "dwell",
    "gravity",
    "prop",
    "colors",
    "hands",
    "body",
    "hss",
    "hold",
    "dwellmax",
    "handspec",
    "propdiam",
    "bouncefrac",
    "squeezebeats",
    "bogus",
];

const KEY_VALUES: &[&str] = &[
    "2",
    "0.5",
    "1e400",
    "abc",
    "-5",
    "nan",
    "",
    "(10)(20).",
    "(10)(20)C.",
    "((10)(20).)^99999",
    "<(0,0,0)|(100,0,0,180)>",
    "((0,1)(0,2))^5000.",
    "mixed",
    "{red}{blue}",
    "({red}({blue})^1000)^1000",
    "club",
    "ring",
    "\u{1b}[31m",
    "3",
    "531",
    "true",
    "1",
    "26",
    "27",
    "(1,2)",
    "4.5",
];

/// Every TOML key with values of every form.
const TOML_KEYS: &[&str] = &[
    "name",
    "description",
    "bps",
    "dwell",
    "beat_dwells",
    "gravity",
    "prop",
    "props",
    "colors",
    "color_by_orbit",
    "jugglers",
    "hands",
    "juggler_hands",
    "body",
    "bodies",
    "camera",
    "spins",
    "ring_throws",
];

const TOML_VALUES: &[&str] = &[
    "3",
    "0.5",
    "-1",
    "1e308",
    "nan",
    "inf",
    "\"abc\"",
    "\"red\"",
    "true",
    "[]",
    "[1, 2]",
    "[\"red\", \"#123456\"]",
    "{}",
    "{ forearm = 0.3 }",
    "{ azimuth = 10, elevation = 90, distance = 5 }",
    "[{ throw = [0.3], catch = [0.1] }]",
    "[{ x = 0, z = -1, facing = 0 }]",
    "{ \"3\" = 2 }",
    "\"pancake\"",
    "\"(10)(20).\"",
    "[[1.0, 2.0]]",
    "[{}, { shoulder_height = 1.2 }]",
    "\"club\"",
    "2",
    "9999999",
];

/// `pattern=P;KEY=VALUE[;KEY=VALUE]`: a settings string with random keys and values.
fn settings_string(rng: &mut Rng) -> String {
    let mut text = format!(
        "pattern={}",
        rng.pick(&["3", "531", "<3p|3p>", "(4,4)", "5B", "3~2"])
    );
    for _ in 0..=rng.below(3) {
        let key = rng.pick(STRING_KEYS);
        let value = rng.pick(KEY_VALUES);
        text.push_str(&format!(";{key}={value}"));
    }
    text
}

/// A TOML pattern with random keys and values.
fn toml_keys(rng: &mut Rng) -> Vec<u8> {
    let mut text = format!(
        "siteswap = \"{}\"\n",
        rng.pick(&["3", "531", "<3p|3p>", "(4,4)"])
    );
    for _ in 0..=rng.below(3) {
        text.push_str(&format!(
            "{} = {}\n",
            rng.pick(TOML_KEYS),
            rng.pick(TOML_VALUES)
        ));
    }
    text.into_bytes()
}

const NUMBERS: &[&str] = &[
    "0", "1", "-1", "0.5", "3", "1e17", "-1e17", "1e308", "1e-308", "nan", "inf", "-inf", "1.9999",
    "2", "100", "0.1", "50", "50.1", "1e9", "-0", "abc", "", "4x3", "1e400",
];

const TOML_SNIPPETS: &[&str] = &[
    "siteswap = \"531\"\n",
    "[[pattern]]\nname = \"A\"\nsiteswap = \"3\"\n",
    "bps = 3.5\n",
    "bps = 1e-308\n",
    "gravity = 1e308\n",
    "dwell = 1.99\n",
    "prop = \"ring\"\n",
    "colors = [\"red\", \"#123456\"]\n",
    "hands = [{ throw = [0.3], catch = [0.1] }]\n",
    "jugglers = [{ x = 0, z = -1, facing = 0 }, { x = 0, z = 1, facing = 180 }]\n",
    "body = { forearm = 0.3 }\n",
    "bodies = [{}, { shoulder_height = 1.2 }]\n",
    "camera = { azimuth = 10, elevation = 20, distance = 5 }\n",
    "name = \"\u{1b}[31mred\"\n",
    "[[pattern]]\n",
    "siteswap = \"([4444]^1000000)\"\n",
    "x = [[[[[[[[[[[[\n",
    "siteswap = '''\n3\n'''\n",
    "\u{feff}siteswap = \"3\"\n",
    "siteswap = \"3\"\r\n",
    "[[pattern]]\nsiteswap = \"3\"\nname = \"nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn",
    "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn",
    "\"\n",
];

const JML_SNIPPETS: &[&str] = &[
    "<?xml version=\"1.0\"?>\n",
    "<jml version=\"1.2\">",
    "<patternlist>",
    "<title>t</title>",
    "<line display=\"a\" notation=\"siteswap\">pattern=531;bps=4</line>",
    "<line display=\"b\" notation=\"siteswap\">3</line>",
    "<line display=\"c\" notation=\"siteswap\">pattern=3;gravity=1e308</line>",
    "<line display=\"h\"/>",
    "<line notation=\"jml\"><pattern><title>p</title><basepattern notation=\"siteswap\">pattern=441</basepattern></pattern></line>",
    "<pattern><event x=\"0\" y=\"0\" z=\"0\" t=\"0\" hand=\"1:left\"/></pattern>",
    "</patternlist>",
    "</jml>",
    "<!DOCTYPE x [<!ENTITY a \"aaaa\">]>",
    "&a;&a;&lt;&#0;&#xFFFFFF;",
    "<![CDATA[3]]>",
    "<jml><jml><jml><jml>",
];

/// Inside an event pattern's `<pattern>`: symmetries (tiny delays, switches, cycles), events
/// at far times, keyframes.
const JML_EVENT_SNIPPETS: &[&str] = &[
    "<symmetry type=\"delay\" pperm=\"(1,3,2)\" delay=\"0.7\"/>\n",
    "<symmetry type=\"switchdelay\" jperm=\"(1,1*)\" pperm=\"(1,2,3)\"/>\n",
    "<symmetry type=\"delay\" pperm=\"(1,2,3)\" delay=\"0.01\"/>\n",
    "<symmetry type=\"delay\" pperm=\"(1)(2)(3)\" delay=\"1e-9\"/>\n",
    "<symmetry type=\"switch\" jperm=\"(1,2)\" delay=\"0.5\"/>\n",
    "<symmetry type=\"switchdelay\" jperm=\"(1,2*)(2,1*)\" pperm=\"(1,2)(3)\"/>\n",
    "<event x=\"12\" y=\"0\" z=\"0\" t=\"0\" hand=\"1:right\">\n<throw path=\"1\" type=\"toss\"/>\n</event>\n",
    "<event x=\"30\" y=\"0\" z=\"0\" t=\"0.25\" hand=\"1:right\">\n<catch path=\"3\"/>\n</event>\n",
    "<event x=\"-12\" y=\"0\" z=\"0\" t=\"99999.995\" hand=\"1:left\">\n<throw path=\"2\" type=\"bounce\"/>\n</event>\n",
    "<event x=\"0\" y=\"0\" z=\"0\" t=\"0.1\" hand=\"2:left\">\n<holding path=\"2\"/>\n</event>\n",
    "<position x=\"0\" y=\"0\" z=\"100\" t=\"0\" angle=\"0\" juggler=\"1\"/>\n",
    "<position x=\"1e9\" y=\"0\" z=\"0\" t=\"0.3\" angle=\"90\" juggler=\"2\"/>\n",
    "<prop type=\"club\" mod=\"color=red\"/>\n",
];

/// An event JML: header, a setup of 1-3 jugglers and 1-4 paths, random insides.
fn event_jml(rng: &mut Rng) -> Vec<u8> {
    let mut out = format!(
        "<?xml version=\"1.0\"?>\n<jml version=\"1.2\">\n<pattern>\n<setup jugglers=\"{}\" paths=\"{}\"/>\n",
        1 + rng.below(3),
        1 + rng.below(4)
    )
    .into_bytes();
    out.extend(random_text(rng, JML_EVENT_SNIPPETS));
    out.extend_from_slice(b"</pattern>\n</jml>\n");
    out
}

/// Pieces of JIF: whole small files and fragments (wrong types, huge numbers, repetitions).
const JIF_SNIPPETS: &[&str] = &[
    r#"{"jugglers":[{}],"limbs":[{"juggler":0,"type":"right hand"},{"juggler":0,"type":"left hand"}],"throws":[{"time":0,"duration":3,"from":0,"to":1},{"time":1,"duration":3,"from":1,"to":0}],"repetition":{"period":2}}"#,
    r#"{"jugglers":[{},{}],"throws":[{"time":0,"duration":3,"from":0,"to":3}],"repetition":{"period":1,"limbPermutation":[1,2,3,0]}}"#,
    r#"{"throws":[{"time":0,"duration":1e300,"from":0,"to":1}],"repetition":{"period":1}}"#,
    r#"{"timeStretchFactor":1000000,"throws":[{"time":0,"duration":3,"from":0,"to":1}]}"#,
    r##"{"props":[{"type":"club","color":"#ff0000"},{"type":"knife"}]}"##,
    r#"{"repetition":{"period":4294967295}}"#,
    r#"{"meta":{"name":"[31m"}}"#,
    r#"{"throws":[{"time":-1,"duration":0,"from":99,"to":-1,"prop":7}]}"#,
    "[",
    "{",
    "}",
    ",",
    "null",
    "\"",
];

const TXT_SNIPPETS: &[&str] = &[
    "531\n",
    "3 # comment\n",
    "# only a comment\n",
    "\r\n",
    "441\r",
    "\u{feff}3\n",
    "pattern=3;bps=3\n",
    "532\n",
    "(4,2x)*\r\n",
    "cascade\n",
    "\t\t\n",
    "3\u{0}3\n",
];

/// Random text built from snippets, with some bytes flipped, doubled or cut.
fn random_text(rng: &mut Rng, snippets: &[&str]) -> Vec<u8> {
    let mut out = Vec::new();
    for _ in 0..=rng.below(12) {
        out.extend_from_slice(rng.pick(snippets).as_bytes());
    }
    if rng.chance(30) {
        let copies = 1 + rng.below(200);
        let piece = out.clone();
        for _ in 0..copies {
            out.extend_from_slice(&piece);
        }
    }
    for _ in 0..rng.below(4) {
        if out.is_empty() {
            break;
        }
        let i = rng.below(out.len());
        match rng.below(4) {
            0 => out[i] = rng.next() as u8,
            1 => out.truncate(i),
            2 => out.insert(i, *rng.pick(b"\0\r\n\"'[]{}<>=#;\\\x1b\xff")),
            _ => {
                let end = (i + rng.below(40)).min(out.len());
                let piece = out[i..end].to_vec();
                out.splice(i..i, piece);
            }
        }
    }
    out
}

/// The files written into the run directory before a command: name and contents.
fn random_files(rng: &mut Rng) -> Vec<(String, Vec<u8>)> {
    let mut files = Vec::new();
    if rng.chance(60) {
        files.push(("p.toml".into(), random_text(rng, TOML_SNIPPETS)));
    }
    if rng.chance(40) {
        files.push(("p.jml".into(), random_text(rng, JML_SNIPPETS)));
    }
    if rng.chance(50) {
        files.push(("p.txt".into(), random_text(rng, TXT_SNIPPETS)));
    }
    if rng.chance(40) {
        files.push(("k.toml".into(), toml_keys(rng)));
    }
    if rng.chance(40) {
        files.push(("e.jml".into(), event_jml(rng)));
    }
    if rng.chance(40) {
        files.push(("p.jif".into(), random_text(rng, JIF_SNIPPETS)));
    }
    if rng.chance(10) {
        files.push(("531".into(), b"not a pattern".to_vec()));
    }
    if rng.chance(10) {
        files.push(("existing.gif".into(), b"precious".to_vec()));
    }
    if rng.chance(10) {
        files.push(("existing.png".into(), b"precious".to_vec()));
    }
    files
}

fn pattern_arg(rng: &mut Rng) -> String {
    match rng.below(14) {
        0..=3 => rng.pick(SITESWAPS).to_string(),
        4 => settings_string(rng),
        5 => rng.pick(&["p.toml", "k.toml"]).to_string(),
        6 => rng.pick(&["p.jml", "e.jml"]).to_string(),
        7 => "p.txt".into(),
        8 => String::from_utf8_lossy(&random_text(rng, SITESWAPS)).into_owned(),
        10 | 11 => "p.jif".into(),
        12 => "e.jml".into(),
        _ => rng
            .pick(&[
                "./531",
                "/dev/null",
                "/dev/zero",
                ".",
                "nodir/x.toml",
                "P.TOML",
            ])
            .to_string(),
    }
}

fn random_args(rng: &mut Rng) -> Vec<String> {
    // A command line cannot hold NUL bytes.
    command_line(rng)
        .into_iter()
        .map(|a| a.replace('\0', ""))
        .collect()
}

fn command_line(rng: &mut Rng) -> Vec<String> {
    let mut args: Vec<String> = Vec::new();
    let command = *rng.pick(&[
        "check", "check", "pose", "pose", "pose", "list", "export", "export", "export", "show", "",
        "bogus", "gen", "gen", "trans", "trans", "tojml", "convert",
    ]);
    if !command.is_empty() {
        args.push(command.into());
    }
    match command {
        "gen" => return gen_args(rng, args),
        "trans" => {
            for _ in 0..2 {
                args.push(match rng.below(4) {
                    0 => settings_string(rng),
                    _ => rng
                        .pick(&[
                            "3",
                            "531",
                            "5B",
                            "4H2",
                            "3~2",
                            "(4,4)",
                            "(4,2x)*",
                            "<3p|3p>",
                            "9",
                            "h1",
                            "[54]24",
                            "b97531",
                            "0",
                            "3.5",
                            "<3.5p|3.5px>",
                            "cascade",
                            "((3^1000)^100)",
                            "zzz",
                            "",
                        ])
                        .to_string(),
                });
            }
            if rng.chance(30) {
                args.push("--json".into());
            }
            return args;
        }
        "convert" => {
            args.push(pattern_arg(rng));
            args.push("--format".into());
            args.push(rng.pick(&["jif", "jml", "toml", "svg"]).to_string());
            return args;
        }
        "tojml" => {
            args.push(pattern_arg(rng));
            return args;
        }
        _ => {}
    }
    let option_pool: &[&str] = match command {
        "check" => &["--json", "--file"],
        "pose" => &[
            "--json",
            "--time",
            "-t",
            "--bps",
            "--dwell",
            "--gravity",
            "--prop",
            "--color-by-orbit",
        ],
        "export" => &[
            "--fps",
            "--loops",
            "--duration",
            "--start",
            "--force",
            "--quiet",
            "--bps",
            "--dwell",
            "--gravity",
            "--prop",
            "--azimuth",
            "--elevation",
            "--distance",
        ],
        "list" => &[],
        _ => &["--screenshot", "--at", "--bps", "--force", "--azimuth"],
    };
    let positional = command != "list" || rng.chance(70);
    if positional {
        args.push(pattern_arg(rng));
    }
    if command == "export" {
        args.push("--out".into());
        args.push(
            rng.pick(&[
                "a.gif",
                "frames",
                "existing.gif",
                "x.png",
                "out/",
                "a.GIF",
                "existing.png",
                "/dev/null",
            ])
            .to_string(),
        );
        // Small and short: the soak test is about input handling, not rendering speed.
        args.push("--size".into());
        args.push(
            rng.pick(&[
                "32x24",
                "16x16",
                "0x0",
                "64x48",
                "1x1",
                "axb",
                "100000x100000",
            ])
            .to_string(),
        );
        if rng.chance(80) {
            args.push("--duration".into());
            args.push(
                rng.pick(&["0.05", "0.1", "0.05", "0", "-1", "nan", "1e300"])
                    .to_string(),
            );
        }
    }
    for _ in 0..rng.below(4) {
        if option_pool.is_empty() {
            break;
        }
        let option = *rng.pick(option_pool);
        args.push(option.into());
        match option {
            "--json" | "--force" | "--quiet" | "--color-by-orbit" => {}
            "--file" => args.push(
                rng.pick(&["p.txt", "p.toml", "/dev/zero", ".", "missing.txt", "-"])
                    .to_string(),
            ),
            "--prop" => args.push(rng.pick(&["ball", "club", "ring", "knife", ""]).to_string()),
            "--screenshot" => args.push(
                rng.pick(&["s.png", "existing.png", "/dev/null"])
                    .to_string(),
            ),
            "--fps" | "--loops" => args.push(
                rng.pick(&["1", "30", "0", "-5", "nan", "1e9", "2"])
                    .to_string(),
            ),
            _ => args.push(rng.pick(NUMBERS).to_string()),
        }
    }
    if rng.chance(3) {
        args.push(String::from_utf8_lossy(&random_text(rng, NUMBERS)).into_owned());
    }
    args
}

/// `gen PROPS MAXTHROW PERIOD [options]`: small searches (the soak times each run), sizes the
/// budget refuses, bad numbers and every option.
fn gen_args(rng: &mut Rng, mut args: Vec<String>) -> Vec<String> {
    args.push(
        rng.pick(&["3", "3", "4", "5", "0", "99999999", "abc", "-1"])
            .to_string(),
    );
    args.push(
        rng.pick(&["5", "6", "7", "-", "0", "300", "4294967296"])
            .to_string(),
    );
    args.push(
        rng.pick(&[
            "3",
            "4",
            "5",
            "2-4",
            "-",
            "0",
            "4097",
            "4294967295",
            "10000",
            "x",
        ])
        .to_string(),
    );
    for _ in 0..rng.below(4) {
        let option = *rng.pick(&[
            "-s", "-m", "-j", "-g", "-ng", "-f", "-prime", "-rot", "-lame", "-x", "-i", "-d", "-l",
            "-cp", "-sym", "-jp", "-se", "-n", "-mf", "-mc", "-mt", "--json", "-bogus",
        ]);
        args.push(option.into());
        match option {
            "-m" | "-j" | "-d" | "-l" => {
                args.push(rng.pick(&["2", "3", "0", "99", "-1", "x"]).to_string())
            }
            "-x" | "-i" => args.push(rng.pick(&["3", "5.*", "(", "[", "a{99999}"]).to_string()),
            _ => {}
        }
    }
    args
}

/// Every path under `dir`, relative to it.
fn tree(dir: &Path) -> BTreeSet<PathBuf> {
    let mut out = BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            out.insert(path.strip_prefix(dir).unwrap().to_path_buf());
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
            }
        }
    }
    out
}

/// Address space every run may use (`prlimit --as`): a run that needs more aborts, and the
/// soak reports it like a crash (issue 27: memory bounded by the output, not the input).
const MEMORY_CAP_BYTES: u64 = 1_000_000_000;

/// Standard output read from a run before the pipe is closed.
const OUTPUT_CAP_BYTES: u64 = 1 << 20;

/// Runs juggler with a hard timeout and [`MEMORY_CAP_BYTES`] of address space; `None` when
/// it had to be killed.
fn run(dir: &Path, args: &[String], timeout: Duration) -> Option<std::process::Output> {
    let mut child = Command::new("prlimit")
        .arg(format!("--as={MEMORY_CAP_BYTES}"))
        .arg("--")
        .arg(env!("CARGO_BIN_EXE_juggler"))
        .args(args)
        .current_dir(dir)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .env_remove("JUGGLER_PATTERNS")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("juggler starts");
    // Drain the pipes on threads so a chatty child never blocks on a full pipe.
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(
            &mut std::io::Read::take(&mut stdout, OUTPUT_CAP_BYTES),
            &mut v,
        );
        // Dropping the pipe closes it: a command still writing meets a closed pipe.
        v
    });
    let err_thread = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut v);
        v
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break Some(status);
        }
        if started.elapsed() > timeout {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let stdout = out_thread.join().unwrap();
    let stderr = err_thread.join().unwrap();
    status.map(|status| std::process::Output {
        status,
        stdout,
        stderr,
    })
}

/// The output path an `export` command line names (its `--out`), if any.
fn out_path(args: &[String]) -> Option<PathBuf> {
    let i = args.iter().position(|a| a == "--out")?;
    args.get(i + 1).map(PathBuf::from)
}

#[test]
fn random_arguments_and_files_never_crash_leak_or_print_nan() {
    let budget = std::env::var("JUGGLER_SOAK_SECONDS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(20.0);
    let seed = std::env::var("JUGGLER_SOAK_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(15);
    let mut rng = Rng(seed);
    let started = Instant::now();
    let mut runs = 0usize;
    let mut by_code = [0usize; 3];
    let mut succeeded: std::collections::BTreeMap<String, usize> = Default::default();
    while started.elapsed().as_secs_f64() < budget || runs < 20 {
        let dir = tempfile::tempdir().unwrap();
        let files = random_files(&mut rng);
        for (name, contents) in &files {
            std::fs::write(dir.path().join(name), contents).unwrap();
        }
        let args = random_args(&mut rng);
        let before = tree(dir.path());
        let describe = || {
            let shown: Vec<String> = files
                .iter()
                .map(|(n, c)| format!("{n}: {:?}", String::from_utf8_lossy(&c[..c.len().min(400)])))
                .collect();
            format!(
                "seed {seed}, run {runs}: juggler {args:?}\nfiles:\n{}",
                shown.join("\n")
            )
        };
        let Some(out) = run(dir.path(), &args, Duration::from_secs(60)) else {
            panic!("hung for 60 s: {}", describe());
        };
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        assert!(
            !stderr.contains("memory allocation of"),
            "over the {MEMORY_CAP_BYTES}-byte memory cap (exit {:?}): {}\nstderr: {stderr}",
            out.status,
            describe()
        );
        assert!(
            matches!(code, Some(0..=2)),
            "exit {:?} (signal, crash or over the {MEMORY_CAP_BYTES}-byte memory cap): {}\nstderr: {stderr}",
            out.status,
            describe()
        );
        by_code[code.unwrap() as usize] += 1;
        if code == Some(0) {
            *succeeded
                .entry(args.first().cloned().unwrap_or_default())
                .or_default() += 1;
        }
        assert!(!stderr.contains("panicked"), "{}\n{stderr}", describe());
        let stdout = String::from_utf8_lossy(&out.stdout);
        if args.iter().any(|a| a == "--json") {
            for line in stdout.lines() {
                assert!(
                    !line.contains("[null") && !line.contains(",null,") && !line.contains(",null]"),
                    "NaN in JSON: {}\n{line}",
                    describe()
                );
                assert!(
                    serde_json::from_str::<serde_json::Value>(line).is_ok()
                        || stdout.trim_start().starts_with('{'),
                    "not JSON: {}\n{line}",
                    describe()
                );
            }
        }
        // Nothing left behind: new paths are only the reported output, and only on success.
        let after = tree(dir.path());
        let new: Vec<&PathBuf> = after.difference(&before).collect();
        let allowed = out_path(&args).filter(|_| code == Some(0));
        for path in &new {
            let ok = allowed.as_ref().is_some_and(|out| {
                path.starts_with(
                    out.components()
                        .filter(|c| c.as_os_str() != ".")
                        .collect::<PathBuf>(),
                )
            });
            assert!(ok, "left behind {path:?} (exit {code:?}): {}", describe());
        }
        for (name, contents) in &files {
            let now = std::fs::read(dir.path().join(name)).unwrap_or_default();
            let forced = args.iter().any(|a| a == "--force");
            assert!(
                now == *contents || (forced && code == Some(0)),
                "{name} changed without --force: {}",
                describe()
            );
        }
        runs += 1;
    }
    eprintln!(
        "soak: {runs} runs in {:.1} s (seed {seed}): exit 0 x{}, 1 x{}, 2 x{}; successes by command {succeeded:?}",
        started.elapsed().as_secs_f64(),
        by_code[0],
        by_code[1],
        by_code[2]
    );
    // Every class of outcome is reached, or the generator has gone stale.
    assert!(by_code.iter().all(|&n| n > 0), "{by_code:?}");
}
