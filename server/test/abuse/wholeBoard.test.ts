/** The whole-board stream of #32, read for a minute (wholeBoard.ts); it runs beside other files. */
import { wholeBoardSuite } from './wholeBoard';

wholeBoardSuite();
