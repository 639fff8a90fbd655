/** The tools and the REST routes answer alike: a tool call compared with the route it stands on. */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';

/** Every tool that maps to one REST route, with the route's path for the same arguments. */
export const TOOL_CALLS: { tool: string; args: Record<string, unknown>; path: string }[] = [
  { tool: 'list_sports', args: {}, path: '/sports' },
  { tool: 'list_games', args: { sport: 'nba' }, path: '/games?sport=nba' },
  { tool: 'get_game_props', args: { eventId: 'ud_100', stats: ['points'] }, path: '/games/ud_100/props?stats=points' },
  { tool: 'scan_props', args: { stat: 'points', limit: 2 }, path: '/props?stat=points&limit=2' },
  { tool: 'find_player_props', args: { name: 'lebron' }, path: '/props/player?name=lebron' },
  {
    tool: 'get_player_context',
    args: { name: 'LeBron James', stat: 'points' },
    path: '/context/player?name=LeBron%20James&stat=points',
  },
  {
    tool: 'get_prop_history',
    args: { eventId: 'pp_100', player: 'LeBron James', stat: 'points' },
    path: '/props/history?eventId=pp_100&player=LeBron%20James&stat=points',
  },
  { tool: 'scan_movers', args: { sport: 'nba', limit: 20 }, path: '/props/movement?sport=nba&limit=20' },
  { tool: 'find_edges', args: { sport: 'nba', limit: 10 }, path: '/props/edges?sport=nba&limit=10' },
  { tool: 'get_track_record', args: { sport: 'nba' }, path: '/props/track-record?sport=nba' },
];

export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

/** A 200 is the tool's structured content exactly; an error is a tool error with the same code. */
export function expectSameAsRest(tool: string, result: CallToolResult, rest: LightMyRequestResponse): void {
  const body = rest.json();
  if (rest.statusCode === 200) {
    expect(result.isError, `${tool}: ${textOf(result)}`).toBeFalsy();
    expect(result.structuredContent, tool).toEqual(body);
    expect(textOf(result).length, tool).toBeGreaterThan(0);
  } else {
    expect(result.isError, tool).toBe(true);
    expect(textOf(result), tool).toContain(`${body.message} (error: ${body.error})`);
  }
}
