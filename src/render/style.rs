//! Colours of the drawn figure, floor and props, and the drawing's own sizes (outline, grid,
//! the chest's taper). The body's sizes (torso depth, limb widths) are the juggler's
//! `BodyDims`, carried on its pose. Sizes are in metres (they scale with perspective) unless
//! the name says pixels.

use crate::types::Rgba;

/// The look of a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    pub background: Rgba,
    /// The stage disc the jugglers stand on, and its grid lines.
    pub floor: Rgba,
    pub grid: Rgba,
    /// Soft shadows on the floor (alpha blended).
    pub shadow: Rgba,
    pub skin: Rgba,
    pub hair: Rgba,
    /// Shirt colours, one per juggler, used cyclically.
    pub shirts: Vec<Rgba>,
    pub trousers: Rgba,
    pub shoes: Rgba,
    /// Club handles.
    pub club_handle: Rgba,
    /// Width of the dark outline drawn around limbs and props, pixels.
    pub outline_px: f32,
    /// Half-width of the torso at the shoulders as a fraction of half the shoulder distance.
    pub chest_fraction: f32,
    /// Grid spacing on the floor.
    pub grid_spacing: f32,
}

impl Default for Style {
    fn default() -> Self {
        Style {
            background: Rgba::rgb(232, 236, 242),
            floor: Rgba::rgb(214, 219, 228),
            grid: Rgba::rgb(199, 205, 216),
            shadow: Rgba::with_alpha(40, 48, 64, 60),
            skin: Rgba::rgb(234, 189, 154),
            hair: Rgba::rgb(78, 56, 44),
            shirts: vec![
                Rgba::rgb(52, 101, 164),
                Rgba::rgb(196, 84, 60),
                Rgba::rgb(62, 140, 96),
                Rgba::rgb(128, 86, 160),
                Rgba::rgb(200, 150, 40),
                Rgba::rgb(60, 150, 170),
            ],
            trousers: Rgba::rgb(58, 64, 84),
            shoes: Rgba::rgb(44, 44, 50),
            club_handle: Rgba::rgb(246, 246, 240),
            outline_px: 1.2,
            chest_fraction: 0.86,
            grid_spacing: 0.5,
        }
    }
}

impl Style {
    /// Shirt colour of juggler `index` (0-based).
    pub(crate) fn shirt(&self, index: usize) -> Rgba {
        if self.shirts.is_empty() {
            Rgba::rgb(52, 101, 164)
        } else {
            self.shirts[index % self.shirts.len()]
        }
    }
}

/// `c` scaled toward black by `factor` (0 = black, 1 = unchanged); alpha kept.
pub(crate) fn shade(c: Rgba, factor: f32) -> Rgba {
    let f = |v: u8| (v as f32 * factor.clamp(0.0, 1.0)).round() as u8;
    Rgba::with_alpha(f(c.r), f(c.g), f(c.b), c.a)
}

/// `c` moved toward white by `amount` (0 = unchanged, 1 = white); alpha kept.
pub(crate) fn tint(c: Rgba, amount: f32) -> Rgba {
    let a = amount.clamp(0.0, 1.0);
    let f = |v: u8| (v as f32 + (255.0 - v as f32) * a).round() as u8;
    Rgba::with_alpha(f(c.r), f(c.g), f(c.b), c.a)
}

/// The outline colour for a fill colour: a dark version of it.
pub(crate) fn outline(c: Rgba) -> Rgba {
    shade(c, 0.45)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shade_and_tint_move_toward_black_and_white() {
        let c = Rgba::with_alpha(200, 100, 0, 128);
        assert_eq!(shade(c, 0.5), Rgba::with_alpha(100, 50, 0, 128));
        assert_eq!(tint(c, 0.5), Rgba::with_alpha(228, 178, 128, 128));
        assert_eq!(shade(c, 1.0), c);
        assert_eq!(tint(c, 1.0), Rgba::with_alpha(255, 255, 255, 128));
    }

    #[test]
    fn shirts_cycle_per_juggler() {
        let style = Style::default();
        let n = style.shirts.len();
        assert_eq!(style.shirt(0), style.shirt(n));
        assert_ne!(style.shirt(0), style.shirt(1));
    }
}
