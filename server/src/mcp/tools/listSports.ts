import { SportsResponseSchema } from '@propsfeed/contract';
import { z } from 'zod';
import { table } from '../render';
import { defineTool } from './tool';

export const listSportsTool = defineTool({
  name: 'list_sports',
  title: 'List sports',
  description:
    "Lists every sport propsfeed covers (id and name) and whether this API key's tier may use it (enabled). " +
    'Call it first when you do not know which sport ids exist or are allowed; other tools take these ids. ' +
    'Asking another tool for a sport that is not enabled answers an error naming the tier that allows it.',
  input: z.object({}),
  output: SportsResponseSchema,
  call: (api) => api.sports(),
  render: (res) =>
    table(
      ['id', 'name', 'enabled'],
      res.sports.map((s) => [s.id, s.name, s.enabled]),
    ),
});
