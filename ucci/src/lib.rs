//! The UCCI, UCI and xboard protocol front-ends of the `qili` binary.
//!
//! The `qili` package's library part, shared by the binary (`qili` with no
//! arguments) and the protocol fuzz targets.

#![forbid(unsafe_code)]

pub mod protocol;
