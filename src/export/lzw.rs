//! GIF's variable-length LZW compression, tuned for difference frames.
//!
//! The output is the standard greedy LZW stream every GIF decoder reads (a clear code first,
//! code width growing from `min_code_size + 1` to 12 bits, a clear code when the dictionary
//! reaches 4095 entries, the end code last), packed least-significant bit first, preceded by
//! the minimum code size byte as `gif::Encoder::write_lzw_pre_encoded_frame` expects.
//!
//! Difference frames are mostly long runs of the transparent index, and whole frames long runs
//! of the background. The dictionary holds, for each byte `b`, the codes of `b`, `bb`, `bbb`, …
//! as a chain, so while the current string is a run of `b` the longest match along a run is
//! found in one step (a word-at-a-time scan of the run) instead of one lookup per pixel. Other
//! strings are found in an open-addressing hash table. The codes are exactly those of plain
//! greedy LZW; only the search is faster (about 5× over the `gif` crate's encoder on the
//! frames of a cascade).

use std::cell::RefCell;

const HASH_BITS: u32 = 13;
const HASH_MASK: usize = (1 << HASH_BITS) - 1;
/// The encoder clears the dictionary before it would assign this code (as giflib does).
const MAX_CODE: u32 = 4095;

/// Reusable dictionary of one thread.
struct Dictionary {
    /// Open addressing: `(prefix << 8 | byte) << 12 | code`, 0 for a free slot (codes of
    /// entries are never 0).
    table: Vec<u32>,
    /// `runs[b][k - 1]`: the code of `b` repeated `k` times.
    runs: Vec<Vec<u16>>,
    /// Bytes whose run chain is longer than the single byte.
    grown: Vec<u8>,
}

impl Dictionary {
    fn new() -> Dictionary {
        Dictionary {
            table: vec![0; 1 << HASH_BITS],
            runs: (0..256u16).map(|b| vec![b]).collect(),
            grown: Vec::new(),
        }
    }

    fn clear(&mut self) {
        self.table.fill(0);
        for &b in &self.grown {
            self.runs[b as usize].truncate(1);
        }
        self.grown.clear();
    }
}

thread_local! {
    static DICTIONARY: RefCell<Dictionary> = RefCell::new(Dictionary::new());
}

/// Codes packed least-significant bit first.
struct BitWriter<'a> {
    out: &'a mut Vec<u8>,
    acc: u64,
    bits: u32,
}

impl BitWriter<'_> {
    #[inline(always)]
    fn put(&mut self, code: u32, width: u32) {
        self.acc |= (code as u64) << self.bits;
        self.bits += width;
        if self.bits >= 32 {
            self.out.extend_from_slice(&(self.acc as u32).to_le_bytes());
            self.acc >>= 32;
            self.bits -= 32;
        }
    }

    fn finish(self) {
        let bytes = self.bits.div_ceil(8) as usize;
        self.out.extend_from_slice(&self.acc.to_le_bytes()[..bytes]);
    }
}

/// How many bytes at the start of `data` equal `b`, counting at most `max`.
#[inline]
fn run_length(data: &[u8], b: u8, max: usize) -> usize {
    let data = &data[..max.min(data.len())];
    let pattern = u64::from_ne_bytes([b; 8]);
    let mut words = data.chunks_exact(8);
    let mut n = 0;
    for word in words.by_ref() {
        let diff = u64::from_le_bytes(word.try_into().unwrap_or_default()) ^ pattern;
        if diff != 0 {
            return n + (diff.trailing_zeros() / 8) as usize;
        }
        n += 8;
    }
    n + words.remainder().iter().take_while(|&&x| x == b).count()
}

/// The GIF image data of `indices` (palette indices): the minimum code size byte, then the
/// LZW codes (without GIF's sub-block framing).
pub(crate) fn encode(indices: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(indices.len() / 8 + 16);
    DICTIONARY.with(|d| encode_with(&mut d.borrow_mut(), indices, &mut out));
    out
}

/// Replace a frame's indices with their [`encode`]d data, for
/// `gif::Encoder::write_lzw_pre_encoded_frame` (what `gif::Frame::make_lzw_pre_encoded`
/// does, faster).
pub(crate) fn pre_encode(frame: &mut gif::Frame<'_>) {
    frame.buffer = encode(&frame.buffer).into();
}

fn encode_with(dict: &mut Dictionary, data: &[u8], out: &mut Vec<u8>) {
    let max = data.iter().copied().max().unwrap_or(0) as u32;
    // GIF's minimum code size is at least 2.
    let min_code_size = (max + 1).max(4).next_power_of_two().trailing_zeros();
    out.push(min_code_size as u8);
    let clear = 1u32 << min_code_size;
    let end = clear + 1;
    let first = clear + 2;
    let mut width = min_code_size + 1;
    let mut next = first;
    dict.clear();
    let mut w = BitWriter {
        out,
        acc: 0,
        bits: 0,
    };
    w.put(clear, width);
    let Some(&head) = data.first() else {
        w.put(end, width);
        w.finish();
        return;
    };

    // Emit `code`, then widen the codes when the decoder will (it adds its entries one code
    // later than the encoder).
    macro_rules! emit {
        ($code:expr) => {
            w.put($code, width);
            if next >= 1 << width && width < 12 {
                width += 1;
            }
        };
    }

    let mut cur = head as u32;
    // When `run > 0`, `cur` is the code of `run_byte` repeated `run` times.
    let mut run_byte = head;
    let mut run = 1usize;
    let mut i = 1;
    while i < data.len() {
        let px = data[i];
        if run > 0 && px == run_byte {
            let chain = &dict.runs[px as usize];
            let known = chain.len() - run;
            let ahead = run_length(&data[i..], px, known + 1);
            let take = ahead.min(known);
            run += take;
            i += take;
            cur = chain[run - 1] as u32;
            if take < ahead {
                // The run goes on beyond the longest known one: emit it and learn one longer.
                emit!(cur);
                if next >= MAX_CODE {
                    w.put(clear, width);
                    dict.clear();
                    width = min_code_size + 1;
                    next = first;
                } else {
                    let chain = &mut dict.runs[px as usize];
                    if chain.len() == 1 {
                        dict.grown.push(px);
                    }
                    chain.push(next as u16);
                    next += 1;
                }
                cur = px as u32;
                run = 1;
                i += 1;
            }
            continue;
        }
        let key = cur << 8 | px as u32;
        let mut slot = (key.wrapping_mul(0x9E37_79B1) >> (32 - HASH_BITS)) as usize;
        loop {
            let entry = dict.table[slot];
            if entry == 0 {
                emit!(cur);
                if next >= MAX_CODE {
                    w.put(clear, width);
                    dict.clear();
                    width = min_code_size + 1;
                    next = first;
                } else {
                    dict.table[slot] = key << 12 | next;
                    next += 1;
                }
                cur = px as u32;
                run_byte = px;
                run = 1;
                break;
            }
            if entry >> 12 == key {
                cur = entry & 0xFFF;
                run = 0;
                break;
            }
            slot = (slot + 1) & HASH_MASK;
        }
        i += 1;
    }
    emit!(cur);
    w.put(end, width);
    w.finish();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decode `encoded` as the image data of a `len`×1 GIF frame with the `gif` crate.
    fn decode(encoded: &[u8], len: usize) -> Vec<u8> {
        let mut file = Vec::new();
        {
            let palette: Vec<u8> = (0..=255u8).flat_map(|i| [i, i, i]).collect();
            let mut enc = gif::Encoder::new(&mut file, len as u16, 1, &palette).unwrap();
            let frame = gif::Frame {
                width: len as u16,
                height: 1,
                buffer: encoded.to_vec().into(),
                ..gif::Frame::default()
            };
            enc.write_lzw_pre_encoded_frame(&frame).unwrap();
        }
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut reader = options.read_info(&file[..]).unwrap();
        reader.read_next_frame().unwrap().unwrap().buffer.to_vec()
    }

    fn xorshift(state: &mut u32) -> u32 {
        *state ^= *state << 13;
        *state ^= *state >> 17;
        *state ^= *state << 5;
        *state
    }

    /// Runs of random bytes below `modulo` with random lengths below `longest`.
    fn runs(seed: u32, modulo: u32, longest: u32, len: usize) -> Vec<u8> {
        let mut s = seed.wrapping_mul(2_654_435_761) | 1;
        let mut v = Vec::with_capacity(len + longest as usize);
        while v.len() < len {
            let byte = (xorshift(&mut s) % modulo) as u8;
            let n = 1 + (xorshift(&mut s) % longest) as usize;
            v.extend(std::iter::repeat_n(byte, n));
        }
        v.truncate(len);
        v
    }

    #[test]
    fn decodes_to_the_input_for_runs_noise_and_full_dictionaries() {
        let mut cases: Vec<Vec<u8>> = vec![
            vec![0],
            vec![255],
            vec![7; 65_000],
            (0..60_000u32).map(|i| (i % 7) as u8).collect(),
            (0..60_000u32).map(|i| (i % 3) as u8).collect(),
            // Only long runs: the dictionary fills (and is cleared) while extending runs.
            (0..=255u8)
                .flat_map(|b| std::iter::repeat_n(b, 250))
                .collect(),
        ];
        for (seed, (modulo, longest)) in [(2, 3), (4, 40), (16, 1000), (200, 3), (256, 40)]
            .into_iter()
            .enumerate()
        {
            cases.push(runs(seed as u32 + 1, modulo, longest, 65_000));
        }
        for (k, data) in cases.iter().enumerate() {
            assert!(data.len() <= usize::from(u16::MAX));
            let encoded = encode(data);
            let decoded = decode(&encoded, data.len());
            let first_difference = decoded.iter().zip(data).position(|(a, b)| a != b);
            assert!(
                decoded == *data,
                "case {k}: {} bytes decoded of {}, first difference at {first_difference:?}",
                decoded.len(),
                data.len()
            );
        }
    }

    #[test]
    fn the_code_size_follows_the_largest_index() {
        assert_eq!(encode(&[0, 1, 2, 3])[0], 2);
        assert_eq!(encode(&[4])[0], 3);
        assert_eq!(encode(&[17])[0], 5);
        assert_eq!(encode(&[254, 255])[0], 8);
    }

    #[test]
    fn long_runs_compress_to_a_few_codes() {
        // A run of n bytes takes about sqrt(2n) codes of at most 12 bits.
        let encoded = encode(&vec![255u8; 100_000]);
        assert!(encoded.len() < 700, "{} bytes", encoded.len());
        // Same codes as the gif crate's encoder (plain greedy LZW) up to the clear policy:
        // the size is within a few bytes.
        let mut frame = gif::Frame {
            width: 1000,
            height: 100,
            buffer: vec![255u8; 100_000].into(),
            ..gif::Frame::default()
        };
        frame.make_lzw_pre_encoded();
        assert!(
            (frame.buffer.len() as i64 - encoded.len() as i64).abs() <= 4,
            "{} vs {}",
            frame.buffer.len(),
            encoded.len()
        );
    }

    #[test]
    fn run_length_counts_equal_bytes_up_to_the_cap() {
        let mut v = vec![9u8; 21];
        v.push(3);
        assert_eq!(run_length(&v, 9, 100), 21);
        assert_eq!(run_length(&v, 9, 10), 10);
        assert_eq!(run_length(&v, 3, 10), 0);
        assert_eq!(run_length(&v[21..], 3, 10), 1);
        assert_eq!(run_length(&[], 3, 10), 0);
    }
}
