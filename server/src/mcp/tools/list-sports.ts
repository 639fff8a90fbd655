import { SportsResponseSchema } from '@propsfeed/contract';
import { table } from '../render';
import { answer } from '../result';
import type { ToolContext } from './context';

export function registerListSports({ server, api, onUnexpected }: ToolContext): void {
  server.registerTool(
    'list_sports',
    {
      title: 'List sports',
      description:
        "Lists every sport propsfeed covers (id and name) and whether this API key's tier may use it (enabled). " +
        'Call it first when you do not know which sport ids exist or are allowed; other tools take these ids. ' +
        'Asking another tool for a sport that is not enabled answers an error naming the tier that allows it.',
      inputSchema: {},
      outputSchema: SportsResponseSchema.shape,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () =>
      answer(
        'list_sports',
        () => api.sports(),
        (res) =>
          table(
            ['id', 'name', 'enabled'],
            res.sports.map((s) => [s.id, s.name, s.enabled]),
          ),
        onUnexpected,
      ),
  );
}
