/** The MCP server (ShowDoc's mcp.php): the endpoint and its tool registry. */
export { mcpEndpoint } from './endpoint';

/** Every URL form ShowDoc's clients use for the endpoint (paths only: the query is ignored). */
export const MCP_PATHS = ['/mcp', '/mcp.php', '/server/mcp', '/server/mcp.php'];
