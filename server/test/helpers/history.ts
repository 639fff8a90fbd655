/**
 * How many stored points repeat the one before them for the same book line (same line and
 * prices): history records changes only, so anything above 0 is a line written twice, e.g.
 * by a restart or a new ingest leader starting from nothing. Plain SQL for both engines.
 */
export const REPEATED_POINTS_SQL = `
  select count(*) as n from (
    select line, over_odds, under_odds, row_number() over w as i,
      lag(line) over w as prev_line, lag(over_odds) over w as prev_over, lag(under_odds) over w as prev_under
    from line_history
    window w as (partition by book, game_id, player_key, stat order by at)
  ) t
  where i > 1 and line is not distinct from prev_line
    and over_odds is not distinct from prev_over and under_odds is not distinct from prev_under`;
