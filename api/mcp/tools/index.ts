/**
 * Every MCP tool, in ShowDoc's order: the one registry `tools/list` and `tools/call` read.
 * Each module owns its tools; add a module's list here.
 */
import type { McpTool } from '../toolkit';

export const ALL_TOOLS: McpTool[] = [];

/** Tools by name. */
export const TOOLS_BY_NAME: ReadonlyMap<string, McpTool> = new Map(
  ALL_TOOLS.map((tool) => [tool.name, tool]),
);
