// The one wire type of the agentls protocol kept by hand: a JSON Schema as far as the form renderer
// reads it (agentproto declares a question's schema as opaque JSON). Everything else comes from
// protocol.gen.ts (go generate ./agentproto). Pure declarations.

/** A JSON Schema (draft 2020-12) as far as the form renderer reads it. */
export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  items?: JsonSchema | boolean;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
  description?: string;
  title?: string;
  [key: string]: unknown;
}
