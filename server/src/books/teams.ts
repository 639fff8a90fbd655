/**
 * Team names: the five US leagues' tables live in the contract (the CLI shortens names with
 * them too). The other sports' teams the simulator schedules are its own (sim/src/teams.ts).
 */
export {
  MLB_TEAMS,
  NBA_TEAMS,
  NFL_TEAMS,
  NHL_TEAMS,
  teamAbbreviation,
  teamName,
  WNBA_TEAMS,
} from '@propsfeed/contract';
