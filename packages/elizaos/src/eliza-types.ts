/**
 * The part of elizaOS 1.x's plugin types this package touches, written out. @elizaos/core's
 * declaration files import each other without file extensions, which TypeScript cannot follow
 * under NodeNext resolution (this repository's, and any Node ESM project's): there its types read
 * as empty. Each type here is a subset of elizaOS's own (same names, same member types), so the
 * plugin is assignable to elizaOS's `Plugin` wherever its types do resolve.
 */

/** `IAgentRuntime`, as far as this plugin uses it. */
export interface AgentRuntime {
  getSetting(key: string): string | boolean | number | null;
}

/** `Content`: a message's or a reply's content. */
export interface Content {
  text?: string;
  actions?: string[];
  source?: string;
  [key: string]: unknown;
}

/** `Memory`: the message an action or provider is run for. */
export interface Memory {
  content: Content;
}

export type HandlerCallback = (response: Content) => Promise<unknown[]>;

export interface ActionResult {
  text?: string;
  values?: Record<string, unknown>;
  data?: Record<string, unknown>;
  success: boolean;
  error?: string | Error;
}

export interface ProviderResult {
  text?: string;
  values?: Record<string, unknown>;
  data?: Record<string, unknown>;
}

export interface Action {
  name: string;
  similes?: string[];
  description: string;
  examples?: { name: string; content: Content }[][];
  validate: (runtime: AgentRuntime, message: Memory, state?: unknown) => Promise<boolean>;
  handler: (
    runtime: AgentRuntime,
    message: Memory,
    state?: unknown,
    options?: unknown,
    callback?: HandlerCallback,
  ) => Promise<ActionResult>;
  [key: string]: unknown;
}

export interface Provider {
  name: string;
  description?: string;
  get: (runtime: AgentRuntime, message: Memory, state?: unknown) => Promise<ProviderResult>;
}

export interface Plugin {
  name: string;
  description: string;
  init?: (config: Record<string, string>, runtime: AgentRuntime) => Promise<void>;
  actions?: Action[];
  providers?: Provider[];
}
