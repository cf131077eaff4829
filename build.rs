//! Passes the target triple the binary is built for to the code, so that
//! `retrochess --version` names it beside the version.

fn main() {
    let target = std::env::var("TARGET").unwrap_or_else(|_| "unknown".into());
    println!("cargo:rustc-env=RETROCHESS_TARGET={target}");
    println!("cargo:rerun-if-changed=build.rs");
}
