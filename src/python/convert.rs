//! Conversions between Python values and engine types. Every conversion names the parameter
//! it reads in its error message.

use numpy::ndarray::Array2;
use numpy::{
    IntoPyArray, PyArray1, PyArray2, PyReadonlyArrayDyn, PyUntypedArrayMethods, ToPyArray,
};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

use crate::math::{DQuat, DVec3};

fn describe(obj: &Bound<'_, PyAny>) -> String {
    let type_name = obj
        .get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "?".into());
    let text = obj.repr().map(|r| r.to_string()).unwrap_or_default();
    let text = if text.len() > 60 {
        format!("{}...", &text[..60])
    } else {
        text
    };
    format!("{type_name} {text}")
}

/// Reads any array-like of numbers as a float64 array (one copy at most).
fn as_array<'py>(
    obj: &Bound<'py, PyAny>,
    param: &str,
    expected: &str,
) -> PyResult<PyReadonlyArrayDyn<'py, f64>> {
    if let Ok(a) = obj.extract::<PyReadonlyArrayDyn<'py, f64>>() {
        return Ok(a);
    }
    let py = obj.py();
    let np = py.import("numpy")?;
    let converted = np.call_method1("asarray", (obj, "float64")).map_err(|_| {
        PyTypeError::new_err(format!(
            "{param}: expected {expected}, got {}",
            describe(obj)
        ))
    })?;
    converted
        .extract::<PyReadonlyArrayDyn<'py, f64>>()
        .map_err(|_| {
            PyTypeError::new_err(format!(
                "{param}: expected {expected}, got {}",
                describe(obj)
            ))
        })
}

/// A vector of 3 numbers from a tuple, list or array of shape (3,).
pub fn vec3(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<DVec3> {
    let a = as_array(obj, param, "3 numbers (x, y, z)")?;
    if a.shape() != [3] {
        return Err(PyValueError::new_err(format!(
            "{param}: expected 3 numbers (x, y, z), got an array of shape {:?}",
            a.shape()
        )));
    }
    let v = a.as_array();
    Ok(DVec3::new(v[0], v[1], v[2]))
}

/// A vector of 2 numbers (a point or vector of a 2D world) from a tuple, list or array of
/// shape (2,).
pub fn vec2(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<crate::math::DVec2> {
    let a = as_array(obj, param, "2 numbers (x, y)")?;
    if a.shape() != [2] {
        return Err(PyValueError::new_err(format!(
            "{param}: expected 2 numbers (x, y), got an array of shape {:?}",
            a.shape()
        )));
    }
    let v = a.as_array();
    Ok(crate::math::DVec2::new(v[0], v[1]))
}

/// n numbers (one per body) from an array of shape (n,).
pub fn values(obj: &Bound<'_, PyAny>, param: &str, n: usize) -> PyResult<Vec<f64>> {
    let expected = format!("an array of shape ({n},)");
    let a = as_array(obj, param, &expected)?;
    if a.shape() != [n] {
        return Err(PyValueError::new_err(format!(
            "{param}: expected {expected}, got shape {:?}",
            a.shape()
        )));
    }
    Ok(a.as_array().iter().copied().collect())
}

/// An optional vector: None gives `default`.
pub fn vec3_or(obj: Option<&Bound<'_, PyAny>>, param: &str, default: DVec3) -> PyResult<DVec3> {
    match obj {
        Some(o) if !o.is_none() => vec3(o, param),
        _ => Ok(default),
    }
}

/// An orientation: a quaternion (x, y, z, w), scalar last (not normalised here); a rotation
/// object with `as_quat()` in that order (rigidlab.Rotation, scipy's Rotation); or a 3x3
/// rotation matrix.
pub fn quat(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<DQuat> {
    if !obj.is_instance_of::<pyo3::types::PyString>() && obj.hasattr("as_quat")? {
        let q = obj.call_method0("as_quat").map_err(|e| {
            PyTypeError::new_err(format!(
                "{param}: as_quat() of {} failed: {e}",
                describe(obj)
            ))
        })?;
        return quaternion(&q, param);
    }
    let a = as_array(
        obj,
        param,
        "4 numbers (x, y, z, w) or a 3x3 rotation matrix",
    )?;
    if a.shape() == [3, 3] {
        let m = a.as_array();
        let cols = [0, 1, 2].map(|j| DVec3::new(m[[0, j]], m[[1, j]], m[[2, j]]));
        let r = crate::math::DMat3::from_cols(cols[0], cols[1], cols[2]);
        let off = (r.transpose() * r - crate::math::DMat3::IDENTITY)
            .to_cols_array()
            .iter()
            .fold(0.0_f64, |worst, x| worst.max(x.abs()));
        // A matrix rounded to 6 or more digits, as printed or typed, still reads as the
        // rotation it stands for; further off, it is not a rotation.
        if !r.is_finite() || off > 1e-6 || r.determinant() < 0.0 {
            return Err(PyValueError::new_err(format!(
                "{param}: a 3x3 matrix must be a rotation (orthonormal columns, determinant +1)"
            )));
        }
        return Ok(DQuat::from_mat3(&r));
    }
    let q = quaternion(obj, param)?;
    warn_if_scalar_first(obj.py(), q, param)?;
    Ok(q)
}

/// 4 numbers (x, y, z, w).
fn quaternion(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<DQuat> {
    let a = as_array(obj, param, "4 numbers (x, y, z, w)")?;
    if a.shape() != [4] {
        return Err(PyValueError::new_err(format!(
            "{param}: expected a quaternion of 4 numbers (x, y, z, w), got an array of shape {:?}",
            a.shape()
        )));
    }
    let v = a.as_array();
    Ok(DQuat::from_xyzw(v[0], v[1], v[2], v[3]))
}

/// (1, 0, 0, 0) is the identity written scalar first, (w, x, y, z), as MuJoCo and Eigen write
/// it; read as (x, y, z, w) it is a half turn about x. Both are meant, so it is accepted, but
/// not silently.
fn warn_if_scalar_first(py: Python<'_>, q: DQuat, param: &str) -> PyResult<()> {
    if q.x.abs() == 1.0 && q.y == 0.0 && q.z == 0.0 && q.w == 0.0 {
        let message = format!(
            "{param}: ({}, 0, 0, 0) is a half turn about x in rigidlab's (x, y, z, w) order; the \
             identity is (0, 0, 0, 1). Pass rigidlab.Rotation.from_axis_angle((1, 0, 0), pi) to \
             mean the half turn without this warning, or Rotation.from_quat(q, scalar_first=True) \
             for a (w, x, y, z) quaternion",
            q.x
        );
        let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
        let message = std::ffi::CString::new(message).expect("no NUL in the message");
        PyErr::warn(py, &category, &message, 2)?;
    }
    Ok(())
}

/// Rows of an (n, k) array, checked against the expected row count.
fn rows(obj: &Bound<'_, PyAny>, param: &str, n: usize, k: usize) -> PyResult<Vec<f64>> {
    let expected = format!("an array of shape ({n}, {k})");
    let a = as_array(obj, param, &expected)?;
    if a.shape() != [n, k] {
        return Err(PyValueError::new_err(format!(
            "{param}: expected {expected}, got shape {:?}",
            a.shape()
        )));
    }
    Ok(a.as_array().iter().copied().collect())
}

/// Any number of rows of k numbers: an (m, k) array.
pub fn any_rows(obj: &Bound<'_, PyAny>, param: &str, k: usize) -> PyResult<Vec<f64>> {
    let expected = format!("an array of shape (m, {k})");
    let a = as_array(obj, param, &expected)?;
    if a.ndim() != 2 || a.shape()[1] != k {
        return Err(PyValueError::new_err(format!(
            "{param}: expected {expected}, got shape {:?}",
            a.shape()
        )));
    }
    Ok(a.as_array().iter().copied().collect())
}

/// One vector of 3 numbers, or an (m, 3) array of them.
pub fn vectors_or_one(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<Vec<DVec3>> {
    let expected = "a vector of 3 numbers or an array of shape (m, 3)";
    let a = as_array(obj, param, expected)?;
    let shape = a.shape().to_vec();
    if !matches!(shape[..], [3] | [_, 3]) {
        return Err(PyValueError::new_err(format!(
            "{param}: expected {expected}, got shape {shape:?}"
        )));
    }
    let flat: Vec<f64> = a.as_array().iter().copied().collect();
    Ok(flat.chunks_exact(3).map(DVec3::from_slice).collect())
}

/// One number, or (n,) numbers; one is repeated n times.
pub fn numbers_or_one(obj: &Bound<'_, PyAny>, param: &str, n: usize) -> PyResult<Vec<f64>> {
    let expected = format!("a number or an array of shape ({n},)");
    let a = as_array(obj, param, &expected)?;
    match a.shape() {
        [] => Ok(vec![
            a.as_array().iter().copied().next().expect("a scalar");
            n
        ]),
        [m] if *m == n => Ok(a.as_array().iter().copied().collect()),
        shape => Err(PyValueError::new_err(format!(
            "{param}: expected {expected}, got shape {shape:?}"
        ))),
    }
}

pub fn rows3(obj: &Bound<'_, PyAny>, param: &str, n: usize) -> PyResult<Vec<DVec3>> {
    Ok(rows(obj, param, n, 3)?
        .chunks_exact(3)
        .map(DVec3::from_slice)
        .collect())
}

pub fn rows4(obj: &Bound<'_, PyAny>, param: &str, n: usize) -> PyResult<Vec<DQuat>> {
    // A stack of n rotations (scipy's Rotation) gives its quaternions, scalar last.
    let quats;
    let obj = if obj.hasattr("as_quat")? {
        quats = obj.call_method0("as_quat")?;
        &quats
    } else {
        obj
    };
    Ok(rows(obj, param, n, 4)?
        .chunks_exact(4)
        .map(|c| DQuat::from_xyzw(c[0], c[1], c[2], c[3]))
        .collect())
}

/// `array`, read-only, as the rigidlab package's ReadOnlyArray. Every array the core hands out
/// goes through here: a copy that could be written into would silently drop the write.
pub fn frozen<'py, A: pyo3::type_object::PyTypeCheck>(array: Bound<'py, A>) -> Bound<'py, A> {
    let py = array.py();
    let Ok(untyped) = array.as_any().cast::<numpy::PyUntypedArray>() else {
        return array;
    };
    let raw = untyped.as_array_ptr();
    // SAFETY: the array was made by the caller a moment ago and no Rust borrow of it exists;
    // clearing the flag is what numpy's own setflags(write=False) does.
    unsafe {
        (*numpy::npyffi::_PyArray_GET_ITEM_DATA(raw)).flags &= !numpy::npyffi::NPY_ARRAY_WRITEABLE
    };
    let Some(class) = crate::python::hooks::lent_item(py, pyo3::intern!(py, "ReadOnlyArray"))
    else {
        return array;
    };
    let Ok(class) = class.cast_into::<pyo3::types::PyType>() else {
        return array;
    };
    // SAFETY: a view of a live array as a subtype of ndarray (the lent class is one), with the
    // array's own dtype (null); numpy returns a new reference or null with an error set. The
    // C call rather than `array.view(cls)` keeps reading a body's position cheap.
    let view = unsafe {
        let ptr = numpy::npyffi::PY_ARRAY_API.PyArray_View(
            py,
            raw,
            std::ptr::null_mut(),
            class.as_type_ptr(),
        );
        Bound::from_owned_ptr_or_err(py, ptr)
    };
    match view {
        Ok(view) => view.cast_into::<A>().unwrap_or(array),
        Err(_) => array,
    }
}

/// A frozen `array` whose write error names `setter`, the way to change what it describes.
pub fn settable<'py, A>(array: Bound<'py, A>, setter: &str) -> Bound<'py, A> {
    // A plain ndarray (the package not imported) has no attributes to set: it keeps numpy's
    // own read-only error.
    let _ = array.as_any().setattr("_setter", setter);
    array
}

/// An array of any element type from a vector, read-only.
pub fn frozen_vec<'py, T: numpy::Element>(py: Python<'py>, v: Vec<T>) -> Bound<'py, PyArray1<T>> {
    frozen(PyArray1::from_vec(py, v))
}

pub fn array3<'py>(py: Python<'py>, v: DVec3) -> Bound<'py, PyArray1<f64>> {
    frozen(PyArray1::from_slice(py, &v.to_array()))
}

pub fn array4<'py>(py: Python<'py>, q: DQuat) -> Bound<'py, PyArray1<f64>> {
    frozen(PyArray1::from_slice(py, &q.to_array()))
}

pub fn matrix3<'py>(py: Python<'py>, m: crate::math::DMat3) -> Bound<'py, PyArray2<f64>> {
    let t = m.transpose().to_cols_array(); // rows of m, row-major
    let a = Array2::from_shape_vec((3, 3), t.to_vec()).expect("3x3");
    frozen(a.into_pyarray(py))
}

/// An (n, k) array built from a flat row-major buffer, without another copy.
pub fn table<'py>(py: Python<'py>, data: Vec<f64>, k: usize) -> Bound<'py, PyArray2<f64>> {
    let n = data.len() / k;
    let a = Array2::from_shape_vec((n, k), data).expect("row-major buffer");
    frozen(a.into_pyarray(py))
}

/// An (n, k) array copied from a flat row-major slice (one memcpy).
pub fn copied<'py>(py: Python<'py>, data: &[f64], k: usize) -> Bound<'py, PyArray2<f64>> {
    let a =
        numpy::ndarray::ArrayView2::from_shape((data.len() / k, k), data).expect("row-major slice");
    frozen(a.to_pyarray(py))
}

/// A real number (int, float or numpy scalar); the error names `param`.
pub fn float(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<f64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{param}: expected a number, got {}",
            describe(obj)
        )));
    }
    obj.extract::<f64>().map_err(|_| {
        PyTypeError::new_err(format!("{param}: expected a number, got {}", describe(obj)))
    })
}

/// A real number or None.
pub fn opt_float(obj: Option<&Bound<'_, PyAny>>, param: &str) -> PyResult<Option<f64>> {
    match obj {
        Some(o) if !o.is_none() => float(o, param).map(Some),
        _ => Ok(None),
    }
}

/// An integer (not a float or a bool); the error names `param`.
pub fn int(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<i64> {
    if obj.is_instance_of::<pyo3::types::PyBool>() {
        return Err(PyTypeError::new_err(format!(
            "{param}: expected an integer, got {}",
            describe(obj)
        )));
    }
    obj.extract::<i64>().map_err(|_| {
        PyTypeError::new_err(format!(
            "{param}: expected an integer, got {}",
            describe(obj)
        ))
    })
}

/// A 32-bit mask or group number: an integer in [0, 2^32); the error names `param`.
pub fn bits32(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<u32> {
    let k = int(obj, param)?;
    u32::try_from(k).map_err(|_| {
        pyo3::exceptions::PyValueError::new_err(format!(
            "{param}: must be an integer in [0, 2**32) (32 bits; got {k})"
        ))
    })
}

/// A number of threads: None, or an integer of at least 1; the error names `param`.
pub fn thread_count(obj: Option<&Bound<'_, PyAny>>, param: &str) -> PyResult<Option<usize>> {
    match obj.filter(|t| !t.is_none()) {
        None => Ok(None),
        Some(t) => match int(t, param)? {
            // More threads than cores only wait on each other; this many cannot even start.
            k if !(1..=1024).contains(&k) => Err(pyo3::exceptions::PyValueError::new_err(format!(
                "{param}: must lie in [1, 1024] (got {k})"
            ))),
            k => Ok(Some(k as usize)),
        },
    }
}

/// A string; the error names `param`.
/// A Python bool (not any truthy object: a typo should not silently mean True).
pub fn boolean(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<bool> {
    obj.cast::<pyo3::types::PyBool>()
        .map(|b| b.is_true())
        .map_err(|_| {
            pyo3::exceptions::PyTypeError::new_err(format!("{param}: must be True or False"))
        })
}

pub fn string(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<String> {
    obj.extract::<String>().map_err(|_| {
        PyTypeError::new_err(format!("{param}: expected a string, got {}", describe(obj)))
    })
}

/// A file path argument: a str or an os.PathLike.
pub fn path(obj: &Bound<'_, PyAny>, param: &str) -> PyResult<std::path::PathBuf> {
    obj.extract()
        .map_err(|_| PyTypeError::new_err(format!("{param}: expected a str or os.PathLike")))
}
