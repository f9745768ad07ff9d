// The wording of apimachinery's DefaultUnstructuredConverter.FromUnstructured type errors
// (runtime/converter.go: fromUnstructured, sliceFromUnstructured, mapFromUnstructured,
// structFromUnstructured), which kube-apiserver reports when a strategic merge patch leaves a
// field with the wrong JSON type. It is derived from the JSON decoder's message for the same
// field (`json: cannot unmarshal number into Go struct field PodSpec.spec.containers of type
// []v1.Container` → `cannot convert int64 to slice`), since both name the source JSON kind and
// the Go destination type.

const decoderMessage = /^json: cannot unmarshal (object|array|string|bool|number(?: (\S+))?) into Go (?:struct field \S+|value) of type (\S.*)$/;

/** reflect.Type.String() and Kind() of the value the JSON kind decodes to in interface{}. */
function sourceType(jsonKind: string, literal: string | undefined): { type: string; kind: string } {
  if (jsonKind === 'object') return { type: 'map[string]interface {}', kind: 'map' };
  if (jsonKind === 'array') return { type: '[]interface {}', kind: 'slice' };
  if (jsonKind === 'string' || jsonKind === 'bool') return { type: jsonKind, kind: jsonKind };
  const t = literal !== undefined && !/^-?\d+$/.test(literal) ? 'float64' : 'int64';
  return { type: t, kind: t };
}

const scalarTypes = new Set(['string', 'bool', 'int', 'int8', 'int16', 'int32', 'int64', 'uint', 'uint8', 'uint16', 'uint32', 'uint64', 'float32', 'float64']);

/**
 * The converter's message for the JSON decoder's type error `message`, or undefined when the
 * destination is a type with its own conversion (Quantity, IntOrString, Time) or the message
 * is not a type error.
 */
export function unstructuredConvertMessage(message: string): string | undefined {
  const m = decoderMessage.exec(message);
  if (!m) return undefined;
  const src = sourceType(m[1]!.startsWith('number') ? 'number' : m[1]!, m[2]);
  const dst = m[3]!.replace(/^\*+/, '');
  if (dst.startsWith('[]')) return `cannot convert ${src.kind} to slice`;
  if (dst.startsWith('map[')) return `cannot restore map from ${src.kind}`;
  if (scalarTypes.has(dst)) return `cannot convert ${src.type} to ${dst}`;
  if (/^(resource\.Quantity|intstr\.IntOrString|v1\.Time|v1\.MicroTime)$/.test(dst)) return undefined;
  return `cannot restore struct from: ${src.kind}`;
}
