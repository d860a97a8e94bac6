import protobuf from 'protobufjs';

/**
 * The part of onnx.proto (github.com/onnx/onnx, onnx/onnx.proto, IR version 8) this project
 * reads and writes, with the upstream field numbers. onnxruntime's JS API cannot read a model's
 * custom metadata, so the class names Ultralytics writes there are read from the file itself;
 * the test fixture writes its small model with the same types. Fields not listed are skipped
 * when reading.
 */
const onnxSchema = {
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            irVersion: { id: 1, type: 'int64' },
            producerName: { id: 2, type: 'string' },
            graph: { id: 7, type: 'GraphProto' },
            opsetImport: { id: 8, type: 'OperatorSetIdProto', rule: 'repeated' },
            metadataProps: { id: 14, type: 'StringStringEntryProto', rule: 'repeated' },
          },
        },
        OperatorSetIdProto: {
          fields: { domain: { id: 1, type: 'string' }, version: { id: 2, type: 'int64' } },
        },
        StringStringEntryProto: {
          fields: { key: { id: 1, type: 'string' }, value: { id: 2, type: 'string' } },
        },
        GraphProto: {
          fields: {
            node: { id: 1, type: 'NodeProto', rule: 'repeated' },
            name: { id: 2, type: 'string' },
            initializer: { id: 5, type: 'TensorProto', rule: 'repeated' },
            input: { id: 11, type: 'ValueInfoProto', rule: 'repeated' },
            output: { id: 12, type: 'ValueInfoProto', rule: 'repeated' },
          },
        },
        NodeProto: {
          fields: {
            input: { id: 1, type: 'string', rule: 'repeated' },
            output: { id: 2, type: 'string', rule: 'repeated' },
            name: { id: 3, type: 'string' },
            opType: { id: 4, type: 'string' },
            attribute: { id: 5, type: 'AttributeProto', rule: 'repeated' },
          },
        },
        AttributeProto: {
          fields: {
            name: { id: 1, type: 'string' },
            i: { id: 3, type: 'int64' },
            ints: { id: 8, type: 'int64', rule: 'repeated' },
            type: { id: 20, type: 'int32' },
          },
        },
        TensorProto: {
          fields: {
            dims: { id: 1, type: 'int64', rule: 'repeated' },
            dataType: { id: 2, type: 'int32' },
            floatData: { id: 4, type: 'float', rule: 'repeated' },
            int64Data: { id: 7, type: 'int64', rule: 'repeated' },
            name: { id: 8, type: 'string' },
          },
        },
        ValueInfoProto: {
          fields: { name: { id: 1, type: 'string' }, type: { id: 2, type: 'TypeProto' } },
        },
        TypeProto: {
          fields: { tensorType: { id: 1, type: 'TypeProtoTensor' } },
        },
        TypeProtoTensor: {
          fields: {
            elemType: { id: 1, type: 'int32' },
            shape: { id: 2, type: 'TensorShapeProto' },
          },
        },
        TensorShapeProto: {
          fields: { dim: { id: 1, type: 'Dimension', rule: 'repeated' } },
        },
        Dimension: {
          fields: { dimValue: { id: 1, type: 'int64' }, dimParam: { id: 2, type: 'string' } },
        },
      },
    },
  },
};

const root = protobuf.Root.fromJSON(onnxSchema);
export const ModelProto = root.lookupType('onnx.ModelProto');

/** TensorProto.DataType and AttributeProto.AttributeType values used here. */
export const onnxDataType = { float: 1, int64: 7 } as const;
export const onnxAttributeType = { int: 2, ints: 7 } as const;

export interface ModelFacts {
  /** `metadata_props`, such as Ultralytics' `names`, `imgsz` and `stride`. */
  metadata: Map<string, string>;
  inputName: string;
  /** The first input's dimensions; a symbolic dimension is undefined. */
  inputShape: (number | undefined)[];
}

interface DecodedDimension {
  dimValue?: number;
  dimParam?: string;
}

interface DecodedModel {
  metadataProps?: { key?: string; value?: string }[];
  graph?: {
    initializer?: { name?: string }[];
    input?: { name?: string; type?: { tensorType?: { shape?: { dim?: DecodedDimension[] } } } }[];
  };
}

/** Reads the metadata and the input's name and shape from an ONNX file's bytes. */
export function readModelFacts(bytes: Uint8Array): ModelFacts {
  const decoded = ModelProto.toObject(ModelProto.decode(bytes), {
    longs: Number,
  }) as DecodedModel;
  const metadata = new Map<string, string>();
  for (const { key, value } of decoded.metadataProps ?? []) {
    if (key !== undefined) metadata.set(key, value ?? '');
  }
  // Older exporters list the weights among the inputs too; the image is the input that is not one.
  const weights = new Set((decoded.graph?.initializer ?? []).map((tensor) => tensor.name));
  const input = decoded.graph?.input?.find((candidate) => !weights.has(candidate.name));
  if (input?.name === undefined) throw new Error('The model has no input.');
  const dims = input.type?.tensorType?.shape?.dim ?? [];
  return {
    metadata,
    inputName: input.name,
    inputShape: dims.map((dim) =>
      dim.dimValue !== undefined && dim.dimValue > 0 ? dim.dimValue : undefined,
    ),
  };
}
