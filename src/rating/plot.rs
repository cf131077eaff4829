//! The ratings as a chart: every rated player on one Elo axis, strongest at
//! the top, a dot at its rating and a bar over its 95% interval, the anchor
//! marked. Drawn as SVG by `plotters` (no font files: the SVG names a font
//! family and the viewer draws the text; plotters' text metrics without a
//! font are estimates, which only place the labels).

use std::fmt;

use plotters::prelude::*;

use super::Ratings;

/// Why a chart could not be drawn.
#[derive(Clone, Debug, PartialEq)]
pub enum PlotError {
    /// No player is rated.
    Empty,
    /// The plotting library failed (its message).
    Drawing(String),
}

impl fmt::Display for PlotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlotError::Empty => write!(f, "no rated player to draw"),
            PlotError::Drawing(why) => write!(f, "cannot draw the chart: {why}"),
        }
    }
}

impl std::error::Error for PlotError {}

/// Pixels a player's row takes.
const ROW: u32 = 26;
const WIDTH: u32 = 960;

/// The chart of `r` as an SVG document. `anchor` is marked (a red diamond
/// and "(anchor)" after its name); `title` heads it.
///
/// # Errors
/// No player rated, or the plotting library failed.
pub fn svg(
    names: &[String],
    r: &Ratings,
    anchor: Option<usize>,
    title: &str,
) -> Result<String, PlotError> {
    if r.order.is_empty() {
        return Err(PlotError::Empty);
    }
    // Each row's label, strongest first.
    let labels: Vec<String> = r
        .order
        .iter()
        .map(|&p| match anchor == Some(p) {
            true => format!("{} (anchor)", names[p]),
            false => names[p].clone(),
        })
        .collect();
    let label_width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(10) as u32 * 6 + 20;
    let height = ROW * labels.len() as u32 + 110;
    let mut text = String::new();
    {
        let area =
            SVGBackend::with_string(&mut text, (WIDTH + label_width, height)).into_drawing_area();
        let chart = Chart {
            r,
            anchor,
            labels: &labels,
        };
        chart
            .draw(&area, title, label_width)
            .map_err(|e| PlotError::Drawing(e.to_string()))?;
    }
    Ok(text)
}

/// What the chart shows: the ratings, the anchor, each row's label.
struct Chart<'a> {
    r: &'a Ratings,
    anchor: Option<usize>,
    labels: &'a [String],
}

/// The plotting library's error.
type DrawError = DrawingAreaErrorKind<std::io::Error>;

impl Chart<'_> {
    /// The axis: every rating and interval end, with a margin, on round
    /// hundreds.
    fn axis(&self) -> std::ops::Range<f64> {
        let r = self.r;
        let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
        for &p in &r.order {
            let (a, b) = r.interval[p].unwrap_or((r.elo[p], r.elo[p]));
            lo = lo.min(a).min(r.elo[p]);
            hi = hi.max(b).max(r.elo[p]);
        }
        ((lo - 50.0) / 100.0).floor() * 100.0..((hi + 50.0) / 100.0).ceil() * 100.0
    }

    /// Draws the chart on `area`, the labels `label_width` wide.
    fn draw(
        &self,
        area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
        title: &str,
        label_width: u32,
    ) -> Result<(), DrawError> {
        let (r, anchor) = (self.r, self.anchor);
        let rows = self.labels.len();
        area.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(area)
            .caption(title, ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(label_width)
            .build_cartesian_2d(self.axis(), -0.5f64..rows as f64 - 0.5)?;
        // Row k (0 = strongest) at y = rows − 1 − k.
        let y_of = |k: usize| (rows - 1 - k) as f64;
        let row_label = |y: &f64| {
            let k = rows as f64 - 1.0 - y.round();
            if (y - y.round()).abs() > 1e-6 || k < 0.0 || k >= rows as f64 {
                return String::new();
            }
            self.labels[k as usize].clone()
        };
        chart
            .configure_mesh()
            .y_labels(rows)
            .y_label_formatter(&row_label)
            .x_desc("Elo (95% intervals)")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .light_line_style(WHITE.mix(0.0))
            .draw()?;
        let bar = BLUE.stroke_width(2);
        chart.draw_series(r.order.iter().enumerate().filter_map(|(k, &p)| {
            let (a, b) = r.interval[p]?;
            Some(ErrorBar::new_horizontal(y_of(k), a, r.elo[p], b, bar, 10))
        }))?;
        let rated = r.order.iter().enumerate();
        chart.draw_series(
            rated
                .clone()
                .filter(|&(_, &p)| anchor != Some(p))
                .map(|(k, &p)| Circle::new((r.elo[p], y_of(k)), 4, BLUE.filled())),
        )?;
        chart.draw_series(rated.filter(|&(_, &p)| anchor == Some(p)).map(|(k, &p)| {
            EmptyElement::at((r.elo[p], y_of(k)))
                + Polygon::new(vec![(0, -8), (8, 0), (0, 8), (-8, 0)], RED.filled())
        }))?;
        area.present()
    }
}
