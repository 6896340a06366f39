//! The `qili` package's library part: the UCCI/UCI protocol front-ends, shared by
//! the binary (`qili` with no arguments) and the protocol fuzz targets.

#![forbid(unsafe_code)]

pub mod protocol;
