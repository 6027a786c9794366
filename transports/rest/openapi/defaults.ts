// A `.default()` value as a schema's `default`: the same projection as `jsonSchema`'s, in the
// document's two forms (JSON text, and MessagePack/CBOR where bytes and timestamps have no JSON data).
export { defaultAsJson, NO_JSON } from '../../../core/schema/json-default.ts';
