//! Loading ONNX Runtime's C API from a shared library chosen at run time.
use std::ffi::CStr;
use std::path::Path;

use super::{MIN_ORT_VERSION, ModelError};

fn err(message: String) -> ModelError {
    ModelError::Backend {
        backend: "onnxruntime",
        message,
    }
}

/// Parses "1.31.1" into (1, 31).
pub(super) fn parse_version(text: &str) -> Option<(u32, u32)> {
    let mut parts = text.split('.');
    let major = parts.next()?.trim().parse().ok()?;
    let minor = parts.next()?.trim().parse().ok()?;
    Some((major, minor))
}

/// Loads `library`, checks its version and returns its `OrtApi` table. The library stays
/// loaded for the rest of the process (the table points into it).
#[allow(unsafe_code)]
pub(super) fn load_api(library: &Path) -> Result<ort::sys::OrtApi, ModelError> {
    let shown = library.display();
    // SAFETY: loading a shared library runs its initializers; we only accept a path the
    // user named as ONNX Runtime. The symbol type matches ONNX Runtime's C header
    // (`const OrtApiBase* OrtGetApiBase(void)`); both returned pointers are checked for
    // null, the version string is NUL-terminated per the API contract, and the `OrtApi`
    // table is copied while the library is loaded, which it then stays (forgotten below).
    unsafe {
        let lib = libloading::Library::new(library)
            .map_err(|e| err(format!("cannot load {shown}: {e}")))?;
        let get_base: libloading::Symbol<
            unsafe extern "system" fn() -> *const ort::sys::OrtApiBase,
        > = lib.get(b"OrtGetApiBase").map_err(|e| {
            err(format!(
                "{shown} is not ONNX Runtime (no OrtGetApiBase): {e}"
            ))
        })?;
        let base = get_base();
        if base.is_null() {
            return Err(err(format!("{shown}: OrtGetApiBase returned null")));
        }
        let version_ptr = ((*base).GetVersionString)();
        let version = if version_ptr.is_null() {
            String::from("?")
        } else {
            CStr::from_ptr(version_ptr).to_string_lossy().into_owned()
        };
        match parse_version(&version) {
            Some(v) if v >= MIN_ORT_VERSION => {}
            _ => {
                return Err(err(format!(
                    "{shown} is ONNX Runtime {version}; need {}.{} or newer",
                    MIN_ORT_VERSION.0, MIN_ORT_VERSION.1
                )));
            }
        }
        let api = ((*base).GetApi)(ort::sys::ORT_API_VERSION);
        if api.is_null() {
            return Err(err(format!(
                "ONNX Runtime {version} at {shown} does not offer C API version {}",
                ort::sys::ORT_API_VERSION
            )));
        }
        let table = (*api).clone();
        std::mem::forget(lib);
        tracing::info!("using ONNX Runtime {version} from {shown}");
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::parse_version;

    #[test]
    fn parses_versions() {
        assert_eq!(parse_version("1.31.1"), Some((1, 31)));
        assert_eq!(parse_version("garbage"), None);
    }
}
