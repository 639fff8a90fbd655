import { describe, expect, it } from 'vitest';
import { parseGameLogCsv } from '../../src/stats/csv';

const header = 'date,sport,player,team,opponent,home_away,stat,value';

describe('parseGameLogCsv', () => {
  it('reads rows in any column order, with quotes, CRLF, a BOM and blank lines', () => {
    const text = [
      '\uFEFFplayer,team,date,sport,opponent,home_away,stat,value',
      '"Jaren Jackson, Jr.",MEM,2026-11-20,nba,DEN,home,points,24',
      '',
      'Nikola Jokić,Denver Nuggets,2026-11-19,NBA,"The ""Grizz""",A,PRA,51.5',
      '',
    ].join('\r\n');
    expect(parseGameLogCsv(text)).toEqual({
      ok: true,
      rows: [
        {
          line: 2,
          date: '2026-11-20',
          sport: 'nba',
          player: 'Jaren Jackson, Jr.',
          playerKey: 'jaren jackson|memphis grizzlies',
          team: 'Memphis Grizzlies',
          opponent: 'Denver Nuggets',
          home: true,
          stat: 'points',
          value: 24,
        },
        {
          line: 4,
          date: '2026-11-19',
          sport: 'nba',
          player: 'Nikola Jokić',
          playerKey: 'nikola jokic|denver nuggets',
          team: 'Denver Nuggets',
          opponent: 'The "Grizz"',
          home: false,
          stat: 'pra',
          value: 51.5,
        },
      ],
    });
  });

  it('reports every bad row with its line and returns no rows', () => {
    const text = [
      header,
      '2026-11-20,nba,Nikola Jokic,DEN,MEM,home,points,30',
      '2026-02-30,nba,Nikola Jokic,DEN,MEM,home,points,30',
      '2026-11-18,cricket,Nikola Jokic,DEN,MEM,home,points,30',
      '2026-11-17,nba,Nikola Jokic,DEN,MEM,home,strikeouts,30',
      '2026-11-16,nba,,DEN,MEM,there,points,abc',
      '2026-11-15,nba,Nikola Jokic,DEN,MEM,home,points',
      '2026-11-20,nba,Nikola Jokić,Denver Nuggets,LAL,away,points,12',
    ].join('\n');
    expect(parseGameLogCsv(text)).toEqual({
      ok: false,
      errors: [
        "line 3: date '2026-02-30' is not a YYYY-MM-DD date",
        "line 4: sport 'cricket' is not one of nba, wnba, mlb, nfl, nhl, ncaab, ncaaf, soccer, lol",
        "line 5: stat 'strikeouts' is not a nba stat key (points, rebounds, assists, threes, pra, pts_rebs, pts_asts, rebs_asts, steals, blocks, blks_stls, turnovers, fantasy_points)",
        "line 6: player is empty; home_away 'there' is not home or away; value 'abc' is not a number",
        'line 7: 7 fields, the header has 8',
        'line 8: the same player, team, date and stat as line 2',
      ],
    });
  });

  it('numbers lines by where a record starts, even after a quoted line break', () => {
    const text = `${header}\n2026-11-20,nba,"Nikola\nJokic",DEN,MEM,home,points,30\n2026-11-19,nba,X,DEN,MEM,home,points,-\n`;
    expect(parseGameLogCsv(text)).toEqual({ ok: false, errors: ["line 4: value '-' is not a number"] });
  });

  it('refuses a file without the columns, without rows, or with an open quote', () => {
    expect(parseGameLogCsv('')).toEqual({
      ok: false,
      errors: [
        'the file is empty; the first line must name the columns: date,sport,player,team,opponent,home_away,stat,value',
      ],
    });
    expect(parseGameLogCsv('date,sport,player,team,stat,value\n')).toEqual({
      ok: false,
      errors: [
        'line 1: missing columns opponent, home_away (expected date,sport,player,team,opponent,home_away,stat,value)',
      ],
    });
    expect(parseGameLogCsv(`${header}\n`)).toEqual({ ok: false, errors: ['the file has a header but no rows'] });
    expect(parseGameLogCsv(`${header}\n2026-11-20,nba,"Nikola Jokic,DEN,MEM,home,points,30\n`)).toEqual({
      ok: false,
      errors: ['line 2: a quoted field is never closed'],
    });
  });
});
