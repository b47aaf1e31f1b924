//! The digit classifier: an 11-class ONNX CNN run through `ort`, with an optional second
//! model that reads the cells the first doubts (`second_opinion`).
//!
//! Owns model loading (from the embedded copies of `models/digits.onnx` and
//! `models/digits-second.onnx`, or any file), backend selection and batched inference. The
//! default backend is tract (pure Rust, through `ort-tract`); with the `onnxruntime` feature,
//! ONNX Runtime's shared library can be loaded at run time instead. `ort` holds one backend
//! per process: the first [`Classifier`] built chooses it, and asking for another later is an
//! error rather than a silent switch. It knows nothing of images: input is
//! `vision::normalize_cell` output.

use std::path::{Path, PathBuf};
use std::sync::Mutex;

use ort::session::Session;
use ort::session::builder::GraphOptimizationLevel;
use ort::value::TensorRef;

use super::second_opinion::second_opinion;
use super::{CellReading, NUM_CLASSES};
use crate::vision::{CELL_INPUT_LEN, CELL_INPUT_PX};

/// The trained model shipped with the crate (`models/digits.onnx`), compiled in so the binary
/// works from any directory.
pub const EMBEDDED_MODEL: &[u8] = include_bytes!("../../models/digits.onnx");

/// The second model shipped with the crate (`models/digits-second.onnx`): the same network
/// trained with more webcam frames of real handwriting, asked about the cells the first
/// model doubts ([`super::second_opinion`]).
pub const EMBEDDED_SECOND_MODEL: &[u8] = include_bytes!("../../models/digits-second.onnx");

/// Name of the model output holding the 11 class logits (the first output when no output has
/// this name).
pub const LOGITS_OUTPUT: &str = "logits";

/// Name of the optional second model output: handwriting vs print per cell, `[N,2]` logits
/// (index 0 printed, 1 handwritten) or `[N,1]` (one logit of handwriting). A model without
/// it still loads; its readings carry no handwriting probability.
pub const KIND_OUTPUT: &str = "kind";

/// Environment variable naming ONNX Runtime's shared library for [`Backend::OnnxRuntime`].
pub const ORT_LIB_ENV: &str = "SUDOKU_LENS_ORT_LIB";

/// Oldest ONNX Runtime whose C API this build speaks (`ort`'s `api-24` feature).
pub const MIN_ORT_VERSION: (u32, u32) = (1, 24);

/// Which inference engine runs the model.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Backend {
    /// tract, pure Rust, always available.
    #[default]
    Tract,
    /// ONNX Runtime loaded from this shared library (`libonnxruntime.so` …); needs the
    /// `onnxruntime` cargo feature.
    OnnxRuntime {
        /// Path of the shared library.
        library: PathBuf,
    },
}

impl Backend {
    /// ONNX Runtime from the library named by [`ORT_LIB_ENV`], if that variable is set. In a
    /// build without the `onnxruntime` feature the variable is ignored with a warning (tract
    /// reads the same digits; an environment set for another build must not stop a scan).
    pub fn onnxruntime_from_env() -> Option<Backend> {
        let library = std::env::var_os(ORT_LIB_ENV).filter(|v| !v.is_empty())?;
        if !cfg!(feature = "onnxruntime") {
            tracing::warn!(
                "{ORT_LIB_ENV} is set but this build lacks the `onnxruntime` feature; \
                 the digit model runs on tract"
            );
            return None;
        }
        Some(Backend::OnnxRuntime {
            library: PathBuf::from(library),
        })
    }

    /// The backend a command line asks for: ONNX Runtime from `library` when given, else from
    /// [`ORT_LIB_ENV`] when set, else tract.
    pub fn choose(library: Option<&Path>) -> Backend {
        match library {
            Some(l) => Backend::OnnxRuntime {
                library: l.to_path_buf(),
            },
            None => Backend::onnxruntime_from_env().unwrap_or_default(),
        }
    }

    /// Short name for messages (`tract`, `onnxruntime`).
    pub fn name(&self) -> &'static str {
        match self {
            Backend::Tract => "tract",
            Backend::OnnxRuntime { .. } => "onnxruntime",
        }
    }
}

/// Why the classifier could not be built or run.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// The model file could not be read.
    #[error("cannot read digit model {path}: {source}")]
    Read {
        /// The model path.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The bytes are not a model the backend can load.
    #[error("digit model {model} is not a usable ONNX model: {message}")]
    Invalid {
        /// The model path (or "embedded model").
        model: String,
        /// The backend's complaint.
        message: String,
    },
    /// The model runs but its scores are no use: NaN or infinite, or the same whatever the
    /// cell holds.
    #[error("digit model {model} gives unusable scores: {message}")]
    Output {
        /// The model path (or "embedded model").
        model: String,
        /// What is wrong.
        message: String,
    },
    /// The model loads but does not map `[N,1,32,32]` to `[N,11]` (plus, optionally, a
    /// second output `[N,1]` or `[N,2]`).
    #[error("digit model {model} has the wrong shape: {message}")]
    Shape {
        /// The model path (or "embedded model").
        model: String,
        /// What was expected and found.
        message: String,
    },
    /// The backend could not be set up.
    #[error("inference backend {backend}: {message}")]
    Backend {
        /// Backend name.
        backend: &'static str,
        /// What went wrong.
        message: String,
    },
    /// Running the model failed.
    #[error("digit inference failed: {0}")]
    Inference(String),
    /// A cell tensor of the wrong length was passed.
    #[error("cell {index} has {len} values, expected {CELL_INPUT_LEN}")]
    BadCell {
        /// Index of the offending cell in the batch.
        index: usize,
        /// Its length.
        len: usize,
    },
}

/// The backend `ort` was bound to in this process and its one environment (`ort` allows a
/// single environment per process), set once.
static ACTIVE_BACKEND: Mutex<Option<(Backend, ort::environment::Environment)>> = Mutex::new(None);

/// Binds `ort` to `backend` for this process (or checks that it already is) and returns the
/// process's environment.
fn activate(backend: &Backend) -> Result<ort::environment::Environment, ModelError> {
    let mut active = ACTIVE_BACKEND.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((current, env)) = active.as_ref() {
        if current == backend {
            return Ok(env.clone());
        }
        return Err(ModelError::Backend {
            backend: backend.name(),
            message: format!(
                "this process already runs the model on {current:?}; one backend per process"
            ),
        });
    }
    let api = match backend {
        Backend::Tract => ort_tract::api(),
        Backend::OnnxRuntime { library } => native::load_api(library)?,
    };
    // `set_api` only fails if some other code bound ort first; then that API stays in use.
    if !ort::set_api(api) {
        tracing::warn!("ort API was already set elsewhere; keeping it");
    }
    let env = ort::init().build().map_err(|e| ModelError::Backend {
        backend: backend.name(),
        message: e.to_string(),
    })?;
    *active = Some((backend.clone(), env.clone()));
    Ok(env)
}

#[cfg(feature = "onnxruntime")]
mod native;

#[cfg(not(feature = "onnxruntime"))]
mod native {
    use std::path::Path;

    use super::ModelError;

    pub(super) fn load_api(_library: &Path) -> Result<ort::sys::OrtApi, ModelError> {
        Err(ModelError::Backend {
            backend: "onnxruntime",
            message: "this build lacks the `onnxruntime` cargo feature".into(),
        })
    }
}

/// A loaded digit model, ready to classify batches of normalized cells.
pub struct Classifier {
    session: Session,
    backend: Backend,
    model: String,
    /// Index of the class-logits output.
    logits_output: usize,
    /// Index of the handwriting output, when the model has one.
    kind_output: Option<usize>,
    /// The model asked about the cells this one doubts, when there is one.
    second_opinion: Option<Box<Classifier>>,
}

impl std::fmt::Debug for Classifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Classifier")
            .field("backend", &self.backend)
            .field("model", &self.model)
            .field("second_opinion", &self.second_opinion_name())
            .finish_non_exhaustive()
    }
}

impl Classifier {
    /// The embedded models (the first and its second opinion) on tract.
    pub fn new() -> Result<Classifier, ModelError> {
        Classifier::embedded(Backend::Tract)
    }

    /// The embedded first model alone on tract, without its second opinion: what the
    /// training-cell export confirms detector lattices with (the committed cells were
    /// exported so).
    pub fn embedded_first() -> Result<Classifier, ModelError> {
        Classifier::from_bytes(EMBEDDED_MODEL, "embedded model", Backend::Tract)
    }

    /// The embedded models on `backend`: the first, with the second as its second opinion.
    fn embedded(backend: Backend) -> Result<Classifier, ModelError> {
        let second = Classifier::from_bytes(
            EMBEDDED_SECOND_MODEL,
            "embedded second model",
            backend.clone(),
        )?;
        Ok(
            Classifier::from_bytes(EMBEDDED_MODEL, "embedded model", backend)?
                .with_second_opinion(second),
        )
    }

    /// This classifier with `second` asked about the cells it doubts
    /// ([`super::second_opinion`]); `second`'s own second opinion, if any, is dropped.
    pub fn with_second_opinion(mut self, mut second: Classifier) -> Classifier {
        second.second_opinion = None;
        self.second_opinion = Some(Box::new(second));
        self
    }

    /// This classifier alone, without a second opinion.
    pub fn without_second_opinion(mut self) -> Classifier {
        self.second_opinion = None;
        self
    }

    /// The second opinion's model label, when there is one.
    pub fn second_opinion_name(&self) -> Option<&str> {
        self.second_opinion.as_deref().map(|s| s.model.as_str())
    }

    /// Loads the model at `path` on `backend`, alone; `None` loads the embedded models (the
    /// first with its second opinion).
    pub fn load(path: Option<&Path>, backend: Backend) -> Result<Classifier, ModelError> {
        match path {
            None => Classifier::embedded(backend),
            Some(p) => {
                let bytes = std::fs::read(p).map_err(|source| ModelError::Read {
                    path: p.to_path_buf(),
                    source,
                })?;
                Classifier::from_bytes(&bytes, &p.display().to_string(), backend)
            }
        }
    }

    /// Builds a classifier from ONNX bytes; `name` labels errors. Checks the model on a probe
    /// batch of three different cells (blank, solid ink, a stroke): the first output must be
    /// `[3, 11]` (a model fixed to one batch size fails here), a second output, when there
    /// is one, `[3, 1]` or `[3, 2]`; every score finite, and the scores must differ between
    /// the cells (a constant model reads nothing).
    pub fn from_bytes(
        bytes: &[u8],
        name: &str,
        backend: Backend,
    ) -> Result<Classifier, ModelError> {
        let env = activate(&backend)?;
        let backend_err = |e: ort::Error| ModelError::Backend {
            backend: backend.name(),
            message: e.to_string(),
        };
        let invalid = |message: String| ModelError::Invalid {
            model: name.to_string(),
            message,
        };
        let session = Session::builder(&env)
            .map_err(backend_err)?
            .with_optimization_level(GraphOptimizationLevel::Level3)
            .map_err(|e| invalid(e.to_string()))?
            .with_intra_threads(1)
            .map_err(|e| invalid(e.to_string()))?
            .commit_from_memory(bytes)
            .map_err(|e| invalid(e.to_string()))?;
        let outputs = session.outputs();
        let named = |wanted: &str| outputs.iter().position(|o| o.name() == wanted);
        let logits_output = named(LOGITS_OUTPUT).unwrap_or(0);
        let kind_output = named(KIND_OUTPUT).filter(|&i| i != logits_output);
        let mut classifier = Classifier {
            session,
            backend,
            model: name.to_string(),
            logits_output,
            kind_output,
            second_opinion: None,
        };
        let outputs = classifier.session.outputs().len();
        if classifier.session.inputs().len() != 1 || !(1..=2).contains(&outputs) {
            return Err(ModelError::Shape {
                model: name.to_string(),
                message: format!(
                    "expected one input and one or two outputs, found {} inputs and {outputs} \
                     outputs",
                    classifier.session.inputs().len(),
                ),
            });
        }
        classifier.check_on_probe_cells()?;
        Ok(classifier)
    }

    /// The load check of [`Classifier::from_bytes`].
    fn check_on_probe_cells(&mut self) -> Result<(), ModelError> {
        let side = CELL_INPUT_PX as usize;
        let stroke: Vec<f32> = (0..CELL_INPUT_LEN)
            .map(|i| {
                let (x, y) = (i % side, i / side);
                if (side / 2 - 2..side / 2 + 2).contains(&x) && (4..side - 4).contains(&y) {
                    1.0
                } else {
                    0.0
                }
            })
            .collect();
        let probe = [vec![0.0; CELL_INPUT_LEN], vec![1.0; CELL_INPUT_LEN], stroke];
        let (logits, second) = self.run(&probe).map_err(|e| match e {
            ModelError::Inference(message) => ModelError::Shape {
                model: self.model.clone(),
                message,
            },
            other => other,
        })?;
        if let Some((dims, values)) = second {
            let n = probe.len() as i64;
            if dims != [n, 1] && dims != [n, 2] {
                return Err(ModelError::Shape {
                    model: self.model.clone(),
                    message: format!("second output shape {dims:?}, expected [{n}, 1] or [{n}, 2]"),
                });
            }
            if values.iter().any(|v| !v.is_finite()) {
                return Err(ModelError::Output {
                    model: self.model.clone(),
                    message: "its second output is NaN or infinite on the probe cells".into(),
                });
            }
        }
        let rows: Vec<&[f32]> = logits.chunks_exact(NUM_CLASSES).collect();
        if rows.iter().all(|r| r == &rows[0]) {
            return Err(ModelError::Output {
                model: self.model.clone(),
                message: "the same scores for a blank, an inked and a stroked cell: it does \
                          not read its input"
                    .into(),
            });
        }
        Ok(())
    }

    /// The backend running this model.
    pub fn backend(&self) -> &Backend {
        &self.backend
    }

    /// The model's label (file path or "embedded model").
    pub fn model_name(&self) -> &str {
        &self.model
    }

    /// Whether the model tells handwriting from print (has the [`KIND_OUTPUT`] output).
    pub fn has_kind_output(&self) -> bool {
        self.kind_output.is_some()
    }

    /// Classifies a batch of normalized cells (each [`CELL_INPUT_LEN`] values, as made by
    /// `vision::normalize_cell`) in one model run: one reading per cell, in order. With a
    /// second opinion, the cells this model doubts are read by it too, in a second run, and
    /// their probabilities averaged ([`super::second_opinion`]). A model that gives a NaN or
    /// infinite score is an error, never a reading.
    pub fn classify(&mut self, cells: &[Vec<f32>]) -> Result<Vec<CellReading>, ModelError> {
        let mut readings = self.classify_alone(cells)?;
        if let Some(second) = self.second_opinion.as_deref_mut() {
            second_opinion(&mut readings, |doubtful| {
                let batch: Vec<Vec<f32>> = doubtful.iter().map(|&i| cells[i].clone()).collect();
                Ok::<_, ModelError>(
                    second
                        .classify_alone(&batch)?
                        .into_iter()
                        .map(|r| r.probabilities)
                        .collect(),
                )
            })?;
        }
        Ok(readings)
    }

    /// [`Classifier::classify`] by this model alone.
    fn classify_alone(&mut self, cells: &[Vec<f32>]) -> Result<Vec<CellReading>, ModelError> {
        if cells.is_empty() {
            return Ok(Vec::new());
        }
        let (logits, second) = self.run(cells)?;
        let handwritten = match (self.kind_output, second) {
            (Some(_), Some((dims, values))) => {
                Some(handwriting(&dims, &values, cells.len(), &self.model)?)
            }
            _ => None,
        };
        Ok(logits
            .chunks_exact(NUM_CLASSES)
            .enumerate()
            .map(|(i, row)| {
                let mut l = [0.0f32; NUM_CLASSES];
                l.copy_from_slice(row);
                let reading = CellReading::from_logits(&l);
                match &handwritten {
                    Some(p) => reading.with_handwritten(p[i]),
                    None => reading,
                }
            })
            .collect())
    }

    /// Runs the model on `cells` (not empty): the `[N, 11]` scores, checked for shape and
    /// finiteness, and the second output's shape and values when the model has one.
    #[allow(clippy::type_complexity)]
    fn run(
        &mut self,
        cells: &[Vec<f32>],
    ) -> Result<(Vec<f32>, Option<(Vec<i64>, Vec<f32>)>), ModelError> {
        let mut flat = Vec::with_capacity(cells.len() * CELL_INPUT_LEN);
        for (index, c) in cells.iter().enumerate() {
            if c.len() != CELL_INPUT_LEN {
                return Err(ModelError::BadCell {
                    index,
                    len: c.len(),
                });
            }
            flat.extend_from_slice(c);
        }
        let n = cells.len();
        let side = CELL_INPUT_PX as usize;
        let input = TensorRef::from_array_view(([n, 1, side, side], flat.as_slice()))
            .map_err(|e| ModelError::Inference(e.to_string()))?;
        let outputs = self
            .session
            .run(ort::inputs![input])
            .map_err(|e| ModelError::Inference(e.to_string()))?;
        let (shape, logits) = outputs[self.logits_output]
            .try_extract_tensor::<f32>()
            .map_err(|e| ModelError::Inference(e.to_string()))?;
        let dims: Vec<i64> = shape.iter().copied().collect();
        if dims != [n as i64, NUM_CLASSES as i64] || logits.len() != n * NUM_CLASSES {
            return Err(ModelError::Shape {
                model: self.model.clone(),
                message: format!("output shape {dims:?}, expected [{n}, {NUM_CLASSES}]"),
            });
        }
        if let Some(i) = logits.iter().position(|v| !v.is_finite()) {
            return Err(ModelError::Output {
                model: self.model.clone(),
                message: format!(
                    "score {} for cell {} of {n}",
                    logits[i],
                    i / NUM_CLASSES + 1
                ),
            });
        }
        // The handwriting output, else whichever other output the model has.
        let second_output = self
            .kind_output
            .or_else(|| (0..outputs.len()).find(|&i| i != self.logits_output));
        let second = if let Some(k) = second_output {
            let (shape, values) = outputs[k]
                .try_extract_tensor::<f32>()
                .map_err(|e| ModelError::Inference(e.to_string()))?;
            Some((shape.iter().copied().collect(), values.to_vec()))
        } else {
            None
        };
        Ok((logits.to_vec(), second))
    }
}

/// Per-cell probability of handwriting from the [`KIND_OUTPUT`] tensor of `model`: softmax of
/// `[N,2]` logits (index 1 handwritten) or the logistic of `[N,1]`.
fn handwriting(dims: &[i64], kind: &[f32], n: usize, model: &str) -> Result<Vec<f32>, ModelError> {
    let logistic = |x: f32| 1.0 / (1.0 + (-x).exp());
    match dims {
        [rows, 2] if *rows == n as i64 && kind.len() == 2 * n => Ok(kind
            .chunks_exact(2)
            .map(|pair| logistic(pair[1] - pair[0]))
            .collect()),
        [rows, 1] if *rows == n as i64 && kind.len() == n => {
            Ok(kind.iter().map(|&x| logistic(x)).collect())
        }
        _ => Err(ModelError::Shape {
            model: model.to_string(),
            message: format!(
                "output `{KIND_OUTPUT}` has shape {dims:?}, expected [{n}, 2] or [{n}, 1]"
            ),
        }),
    }
}
