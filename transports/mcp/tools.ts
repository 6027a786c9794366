import type { Type } from '../../core/descriptors/type.ts';
import type { Opts } from '../../core/options.ts';
import { jsonSchema, type JsonSchema } from '../../core/schema/json-schema.ts';
import { isObjectType } from '../protocol/call/message-arguments.ts';
import type { Procedure } from '../protocol/call/procedure.ts';

/** One tool as `tools/list` describes it. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  /** What the tool's `arguments` read as: the JSON Schema (draft 2020-12) of the method's arguments object. */
  readonly inputSchema: JsonSchema;
  /** What `structuredContent` holds, for a method that returns an object. */
  readonly outputSchema?: JsonSchema;
}

/**
 * A method as a tool: named by the method, described by its contract (`method(..., { description })`,
 * else the `.describe()` of its arguments or of its return, else `Service.method`), its schemas
 * those `jsonSchema` gives under the registry's options. Throws what `jsonSchema` throws.
 */
export function toolOf(procedure: Procedure, opts: Opts): Tool {
  const args = procedure.arguments.argumentObject!;
  const { returns } = procedure;
  const description =
    procedure.contract.description ??
    args.description ??
    returns.description ??
    `${procedure.service}.${procedure.name}`;
  const tool: { -readonly [K in keyof Tool]: Tool[K] } = {
    name: procedure.name,
    description,
    inputSchema: objectSchema(args, opts),
  };
  if (isObjectType(returns)) tool.outputSchema = objectSchema(returns, opts);
  return tool;
}

/**
 * The schema of a type whose values are objects, saying so at its top as MCP asks (`type: 'object'`),
 * also where the schema is a `$ref` to a named object or a `oneOf` of a variant's members.
 */
function objectSchema(type: Type, opts: Opts): JsonSchema {
  const schema = jsonSchema(type, opts);
  return schema.type === 'object' ? schema : { ...schema, type: 'object' };
}

/**
 * The tools of a registry, described once and again only when a service is added (`Registry.on`
 * may run after the handler is made).
 */
export class ToolList {
  #tools: readonly Tool[] = [];
  #size = -1;

  constructor(
    readonly procedures: ReadonlyMap<string, Procedure>,
    readonly opts: Opts,
  ) {}

  get tools(): readonly Tool[] {
    if (this.#size !== this.procedures.size) {
      this.#tools = [...this.procedures.values()].map((p) => toolOf(p, this.opts));
      this.#size = this.procedures.size;
    }
    return this.#tools;
  }
}
