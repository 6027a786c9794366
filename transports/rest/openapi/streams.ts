// The `content` of a stream: one entry per stream media type, each stating the schema of one item
// (OpenAPI 3.2's `itemSchema`, applied to each item of a sequential media type) and, in its
// description, how the stream ends (docs/rest-registry.md, "Streams: framing").
import type { Type } from '../../../core/descriptors/type.ts';
import type { JsonSchema, SchemaDirection } from '../../../core/schema/schema-target.ts';
import { SSE } from '../../protocol/streams/sse.ts';
import type { StreamForm } from './media-types.ts';
import { PROBLEM_SCHEMA } from './problems.ts';
import type { SchemaComponents } from './schemas.ts';
import type { OpenApiObject } from './types.ts';

const problemRef = (): JsonSchema => ({ $ref: `#/components/schemas/${PROBLEM_SCHEMA}` });

/**
 * The content of a stream of `item`s, in each of `streams` (`where` names it in errors). Without
 * `itemSchemas` (OpenAPI 3.1, which has neither `itemSchema` nor a media type's `description`), each
 * media type is listed bare: {@link streamFraming} then says how its items are framed.
 */
export function streamContent(
  item: Type,
  direction: SchemaDirection,
  where: string,
  schemas: SchemaComponents,
  streams: readonly StreamForm[],
  itemSchemas = true,
): OpenApiObject {
  const out: OpenApiObject = {};
  for (const s of streams) {
    const description = framing(s);
    if (!itemSchemas) out[s.mediaType] = {};
    else if (s.form === 'none') out[s.mediaType] = { description };
    else {
      const itemSchema = schemas.schema(item, direction, s.form, where);
      out[s.mediaType] = {
        description,
        itemSchema: s.mediaType === SSE ? eventSchema(itemSchema, s.codec.contentTypes[0]!) : itemSchema,
      };
    }
  }
  return out;
}

/**
 * An event of a Server-Sent Events stream, as OpenAPI 3.2 models a parsed event (its fields
 * `data`, `event`, `id`; the generic event schema of its "Special Considerations for Server-Sent
 * Events"), one `oneOf` branch per kind of event lacquer writes: an item (a `message` event, whose
 * data is the item's text in `mediaType`), the clean end, and the error that ends the stream.
 */
function eventSchema(item: JsonSchema, mediaType: string): JsonSchema {
  return {
    type: 'object',
    required: ['data'],
    properties: { data: { type: 'string' }, event: { type: 'string' }, id: { type: 'string' } },
    oneOf: [
      {
        description: 'An item: a message event (no event field), its data the item.',
        properties: { event: { const: 'message' }, data: { contentMediaType: mediaType, contentSchema: item } },
      },
      {
        description: 'The clean end.',
        required: ['event'],
        properties: { event: { const: 'end' }, data: { const: '' } },
      },
      {
        description: 'The error that ended the stream: its data a problem document.',
        required: ['event'],
        properties: { event: { const: 'error' }, data: { contentMediaType: mediaType, contentSchema: problemRef() } },
      },
    ],
  };
}

/** How each of `streams` frames its items, for a description that holds what 3.1 media types cannot. */
export function streamFraming(streams: readonly StreamForm[]): string {
  return streams.map((s) => `In ${s.mediaType}: ${framing(s)}`).join(' ');
}

/** How the items, the end and an error are told apart in one stream media type. */
function framing({ mediaType, codec }: StreamForm): string {
  const cut = 'A stream that ends otherwise was cut.';
  if (mediaType === SSE) {
    return (
      'Server-Sent Events: each item a message event whose data is its JSON. An `end` event ends the stream; ' +
      'an `error` event, whose data is a problem document, ends it with an error. Comment lines are heartbeats. ' +
      cut
    );
  }
  const end = codec.sequenceEnd;
  if (end === undefined) {
    return (
      `One item per line. Two blank lines end the stream; a blank line, then a problem document on one line, ` +
      `ends it with an error. ${cut}`
    );
  }
  const marker = `\`${[...end].map((b) => b.toString(16).padStart(2, '0')).join(' ')}\``;
  return (
    `One value per item. The value ${marker} twice ends the stream; ${marker}, then a problem document, ` +
    `ends it with an error. ${cut}`
  );
}
