//! The display memory of an emulated machine, copied out as the video
//! hardware would read it: what a picture of the screen is made from
//! (`crate::picture`).

/// The display of a ZX81 or a Spectrum at one moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Display {
    /// The ZX81's display file as its 24 lines of 32 character codes (a
    /// collapsed line of the 1K machine padded with spaces, code 0, as the
    /// video shows it): 0–63 characters, 128–191 their inverse video. The
    /// patterns are drawn from our own character set
    /// ([`super::charset::zx81_glyph`]).
    Zx81 { codes: Box<[u8; 768]> },
    /// The Spectrum's bitmap (6144 bytes from 0x4000) and attributes (768
    /// bytes from 0x5800), and the border colour (0–7).
    Spectrum {
        memory: Box<[u8; super::spectrum::display::DISPLAY_BYTES]>,
        border: u8,
    },
}
