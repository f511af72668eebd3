// bench/peers/onnx-graph.mjs — the one-node ONNX model the onnxruntime-web peer runs, written
// as protobuf bytes at bench time (no model file is kept): com.microsoft RotaryEmbedding
// (onnxruntime/contrib_ops/cpu/bert/rotary_embedding.cc) on
//   input        float [1, tokens, heads·headDim]
//   position_ids int64 [1]  (the first position; token s is at position_ids[0] + s)
//   cos_cache, sin_cache  float [rows, headDim/2], initializers (as an exported model has them)
// → output float [1, tokens, heads·headDim]. Only the fields this model uses are encoded
// (field numbers from onnx/onnx.proto).

const utf8 = new TextEncoder();

// protobuf wire format: varints, and length-delimited fields (wire type 2).
function varint(n) {
  const out = [];
  let v = BigInt(n);
  if (v < 0n) v += 1n << 64n;  // int64 fields carry negatives as 10-byte two's complement
  do {
    let b = Number(v & 0x7fn);
    v >>= 7n;
    if (v) b |= 0x80;
    out.push(b);
  } while (v);
  return out;
}
const concat = (parts) => {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
};
const int = (field, n) => Uint8Array.from([...varint(field << 3), ...varint(n)]);
const bytes = (field, b) => concat([Uint8Array.from([...varint((field << 3) | 2), ...varint(b.length)]), b]);
const str = (field, s) => bytes(field, utf8.encode(s));
const msg = (field, ...parts) => bytes(field, concat(parts));

const FLOAT = 1, INT64 = 7;  // TensorProto.DataType
const ATTRIBUTE_INT = 2;     // AttributeProto.AttributeType

// ValueInfoProto { name = 1, type = 2 { tensor_type = 1 { elem_type = 1, shape = 2 { dim = 1 { dim_value = 1 } } } } }
const valueInfo = (field, name, elemType, dims) =>
  msg(field, str(1, name), msg(2, msg(1, int(1, elemType), msg(2, ...dims.map((d) => msg(1, int(1, d)))))));
// AttributeProto { name = 1, i = 3, type = 20 }
const intAttribute = (name, i) => msg(5, str(1, name), int(3, i), int(20, ATTRIBUTE_INT));
// TensorProto { dims = 1, data_type = 2, name = 8, raw_data = 9 } (raw_data little-endian)
const floatInitializer = (name, dims, values) =>
  msg(5, ...dims.map((d) => int(1, d)), int(2, FLOAT), str(8, name),
    bytes(9, new Uint8Array(values.buffer, values.byteOffset, values.byteLength)));

/**
 * rotaryModel({ tokens, heads, headDim, interleaved, cos, sin }) → Uint8Array (ModelProto).
 * cos and sin: Float32Array [rows][headDim/2], the angle table of positions 0 … rows − 1.
 */
export function rotaryModel({ tokens, heads, headDim, interleaved, cos, sin }) {
  const half = headDim / 2, rows = cos.length / half;
  if (!Number.isInteger(rows) || sin.length !== cos.length)
    throw new RangeError(`rotaryModel: cos and sin must both be [rows][${half}] (got ${cos.length} and ${sin.length} floats)`);
  // NodeProto { input = 1, output = 2, name = 3, op_type = 4, attribute = 5, domain = 7 }
  const node = msg(1, str(1, 'input'), str(1, 'position_ids'), str(1, 'cos_cache'), str(1, 'sin_cache'),
    str(2, 'output'), str(3, 'rope'), str(4, 'RotaryEmbedding'),
    intAttribute('interleaved', interleaved ? 1 : 0), intAttribute('num_heads', heads), str(7, 'com.microsoft'));
  // GraphProto { node = 1, name = 2, initializer = 5, input = 11, output = 12 }
  const graph = msg(7, node, str(2, 'rotary'),
    floatInitializer('cos_cache', [rows, half], cos), floatInitializer('sin_cache', [rows, half], sin),
    valueInfo(11, 'input', FLOAT, [1, tokens, heads * headDim]), valueInfo(11, 'position_ids', INT64, [1]),
    valueInfo(12, 'output', FLOAT, [1, tokens, heads * headDim]));
  // ModelProto { ir_version = 1, producer_name = 2, graph = 7, opset_import = 8 { domain = 1, version = 2 } }
  return concat([int(1, 8), str(2, 'posenc-bench'), graph,
    msg(8, str(1, ''), int(2, 17)), msg(8, str(1, 'com.microsoft'), int(2, 1))]);
}
