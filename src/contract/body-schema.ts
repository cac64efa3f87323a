/**
 * A POST body checked against its catalog entry's zod schema, the one the JSON Schema OpenAPI,
 * Bazaar and the MCP tools show is generated from: what is documented and what is accepted
 * cannot drift apart.
 */
import type { z } from 'zod';
import { type CodeOf, type Reason, reason } from '../reasons.js';
import type { BodyInput, BodySchema } from '../terms/entry.js';

/** Why a body is refused (400), as the reasons table words it. */
export type BodyRefusal = { readonly ok: false; readonly reason: Reason<CodeOf<400>> };

export type ParsedBody =
  | { readonly ok: true; readonly value: Readonly<Record<string, unknown>> }
  | BodyRefusal;

export const refuseBody = (why: Reason<CodeOf<400>>): BodyRefusal => ({ ok: false, reason: why });

/** `{"kind": …, "subject": …}`: the body's shape, for a message about a body that is not JSON. */
const shapeOf = (schema: BodySchema) => `{${schema.required.map((k) => `"${k}": …`).join(', ')}}`;

/** What is wrong with a value, field by field, in a few words each (three at most). */
function problems(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const at = issue.path.join('.');
      return at === '' ? issue.message : `${at}: ${issue.message}`;
    })
    .join('; ');
}

/** The body as the object its schema describes, or why it is not one. */
export function parseJsonBody(body: Pick<BodyInput, 'input' | 'schema'>, text: string): ParsedBody {
  const { schema } = body;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return refuseBody(reason('body_not_json', { shape: shapeOf(schema) }));
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    return refuseBody(reason('body_not_object', { shape: shapeOf(schema) }));
  }
  const parsed = body.input.safeParse(json);
  if (!parsed.success)
    return refuseBody(reason('body_fields_invalid', { problems: problems(parsed.error.issues) }));
  return { ok: true, value: parsed.data as Record<string, unknown> };
}
