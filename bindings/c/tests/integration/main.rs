//! hopkit-ffi's integration tests, one test binary (`cargo test -p hopkit-ffi --test
//! integration`), one module per topic; filter by module, e.g. `-- header::`.

mod abi;
mod docs;
mod header;
mod world;
