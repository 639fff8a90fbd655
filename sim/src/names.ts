/**
 * Name pools the simulator builds its fictional players from, one per kind of sport, so a
 * hockey roster reads Canadian and Nordic, a soccer one European, a WNBA one female. The
 * pools leave out names that belong to one famous athlete (Shohei, Zion, Jokić…) and the few
 * common pairs that are a real star's name are refused outright (FAMOUS).
 */

const list = (text: string): readonly string[] => text.split(',').map((s) => s.trim());

export interface NamePool {
  first: readonly string[];
  last: readonly string[];
  /** Share of names with a generational suffix (Jr., II, III). */
  suffixRate: number;
}

const US_LAST = list(
  'Johnson, Williams, Brown, Miller, Wilson, Moore, Taylor, Anderson, Thomas, Jackson, Harris, Martin, Thompson, Robinson, Clark, Lewis, Walker, Hall, Allen, Young, King, Wright, Hill, Scott, Adams, Baker, Nelson, Carter, Mitchell, Roberts, Turner, Phillips, Campbell, Parker, Evans, Edwards, Collins, Stewart, Morris, Rogers, Reed, Cook, Bell, Murphy, Bailey, Cooper, Richardson, Cox, Howard, Ward, Peterson, Gray, Watson, Brooks, Kelly, Sanders, Price, Bennett, Barnes, Ross, Henderson, Coleman, Jenkins, Perry, Powell, Long, Patterson, Hughes, Washington, Butler, Simmons, Foster, Alexander, Russell, Griffin, Hayes, Myers, Ford, Hamilton, Graham, Sullivan, Wallace, Cole, Owens, Reynolds, Fisher, Ellis, Gibson, McDonald, Marshall, Freeman, Wells, Webb, Simpson, Stevens, Tucker, Porter, Hicks, Crawford, Boyd, Mason, Kennedy, Warren, Dixon, Burns, Gordon, Shaw, Holmes, Rice, Hunt, Black, Daniels, Palmer, Mills, Nichols, Knight, Ferguson, Stone, Hawkins, Dunn, Perkins, Hudson, Gardner, Stephens, Payne, Pierce, Berry, Matthews, Arnold, Willis, Ray, Watkins, Olson, Carroll, Snyder, Hart, Cunningham, Bradley, Lane, Andrews, Harper, Fox, Riley, Armstrong, Carpenter, Weaver, Greene, Elliott, Sims, Peters, Franklin, Lawson, Fields, Ramsey, Bishop, Holland, McCoy, Barker, Chambers, Hale, Dawson, Goodwin, Tate, Moss, Bowen, Vaughn, Gaines, Pittman, Hardy, Whitfield, Mosley, Odom, Battle, Lyons, Greer',
);

const MEN_FIRST = list(
  'Marcus, Devin, Andre, Darius, Malik, Cameron, Isaiah, Trey, Brandon, Evan, Tyler, Austin, Ryan, Miles, Caleb, Nathan, Derek, Corey, Dylan, Logan, Owen, Hunter, Terrence, Keon, Jamal, Xavier, Damon, Quentin, Reggie, Elijah, Micah, Javon, Tariq, Dante, Kendall, Omar, Rashad, Spencer, Colby, Drew, Chase, Landon, Bryson, Darnell, Khalil, Jaden, Desmond, Maurice, Cedric, Lamont, Terrell, Cortez, Kameron, Deshawn, Tavon, Jerome, Curtis, Vernon, Wesley, Julian, Ellis, Avery, Jace, Roman, Kellen, Donovan, Tobias, Silas, Jasper, Marquis, Ronnie, Alonzo, Dorian, Rodney, Shawn, Calvin, Kendrick, Tremaine',
);

const WOMEN_FIRST = list(
  'Aaliyah, Brianna, Chelsea, Destiny, Erica, Gabrielle, Imani, Jasmine, Kayla, Layla, Maya, Nia, Olivia, Riley, Sydney, Tiana, Jada, Kendra, Alexis, Morgan, Aubrey, Brooke, Camryn, Dana, Erin, Hailey, Janelle, Kiara, Lauren, Monique, Natalie, Quinn, Renee, Shayla, Tamara, Vanessa, Whitney, Ashley, Bria, Deja, Ebony, Faith, Grace, Hannah, Ivy, Jocelyn, Kelsey, Mackenzie, Alana, Tessa, Naomi, Simone, Aliyah, Kennedy, Raven, Sierra, Talia, Jordyn, Amari, Zoe',
);

const MLB_FIRST = list(
  'José, Luis, Carlos, Miguel, Rafael, Andrés, Eduardo, Francisco, Diego, Alejandro, Javier, Ramón, Héctor, Wilmer, Yandel, Elvis, Jeimer, Starling, Teoscar, Tyler, Cody, Brett, Zach, Cole, Kyle, Travis, Jake, Trent, Chad, Wade, Colton, Dalton, Brock, Carson, Hayden, Tanner, Garrett, Shane, Clay, Nolan, Mitch, Sean, Gavin, Tucker, Riley, Kenta, Takumi, Haruto, Min-jun, Seung-woo, Casey, Ty, Jordan, Kody, Brady',
);

const MLB_LAST = [
  ...US_LAST.slice(0, 80),
  ...list(
    'García, Martínez, Rodríguez, Hernández, López, González, Pérez, Sánchez, Ramírez, Torres, Flores, Rivera, Gómez, Díaz, Reyes, Cruz, Morales, Ortiz, Gutiérrez, Chávez, Ramos, Castillo, Jiménez, Vargas, Romero, Herrera, Medina, Aguilar, Vega, Castro, Mendoza, Ruiz, Fernández, Núñez, Peña, Rojas, Santana, Valdez, Espinal, Tanaka, Watanabe, Nakamura, Kato, Ito, Kim, Park, Choi',
  ),
];

const HOCKEY_FIRST = list(
  'Brayden, Cole, Dawson, Evan, Gavin, Jake, Kirby, Liam, Nolan, Parker, Quinn, Reid, Shane, Tanner, Travis, Wyatt, Brett, Colton, Dylan, Garrett, Hudson, Jonah, Keegan, Logan, Mason, Noah, Riley, Ty, Zach, Mats, Jesper, Oskar, Emil, Lars, Aleksi, Juuso, Ville, Patrik, Tomas, Ondrej, Jakub, Dmitri, Ivan, Artem, Pavel, Mathieu, Alexandre, Olivier, Gabriel, Samuel',
);

const HOCKEY_LAST = list(
  'Bouchard, Tremblay, Gagnon, Roy, Lavoie, Gauthier, Pelletier, Fortin, MacDonald, Campbell, Fraser, Stewart, Morrison, Sinclair, Wallace, Henderson, Murray, Graham, Ferguson, Reid, Ross, Johansson, Lindqvist, Nilsson, Andersson, Lehtonen, Virtanen, Mäkinen, Korhonen, Novák, Dvořák, Svoboda, Petrov, Volkov, Sokolov, Morozov, Brennan, Doyle, Kelly, Carlson, Larsen, Halvorsen, Berglund, Sundqvist, Lachance, Bergeron-Roy, Côté, Boucher, Ouellet, Cormier, McKenzie, Paterson, Sutherland, Kowalski, Nowak, Hanson, Olsen, Quinlan, Whitlock, Beaulieu',
);

const SOCCER_FIRST = list(
  'Mateo, Lucas, Hugo, Pablo, Adrián, Sergio, Marco, Luca, Lorenzo, Matteo, Federico, Nicolò, Baptiste, Mathis, Julien, Jonas, Felix, Leon, Niklas, Tobias, Jamie, Callum, Kieran, Rory, Ewan, João, Tiago, Diogo, Rafael, Kofi, Yaw, Moussa, Ibrahim, Youssef, Bastian, Sander, Milan, Iker, Unai, Álvaro, Gonzalo, Nico, Davide, Tommaso, Samuel, Arthur, Maxime, Quentin, Emeka, Amadou, Rasmus, Mikkel, Viktor, Stefan, Joel',
);

const SOCCER_LAST = list(
  'Navarro, Moreno, Serrano, Molina, Ortega, Delgado, Iglesias, Cabrera, Rossi, Bianchi, Romano, Colombo, Ricci, Marino, Greco, Gallo, Conti, De Luca, Costa, Fontana, Lefebvre, Moreau, Girard, Dubois, Lambert, Fontaine, Rousseau, Schmitz, Wagner, Becker, Hoffmann, Schäfer, Koch, Richter, Wolf, Ferreira, Pereira, Almeida, Carvalho, Ribeiro, Gomes, Martins, Sousa, Mensah, Owusu, Diallo, Traoré, Koné, Camara, Bakker, de Vries, Jansen, Visser, Walsh, Byrne, Doherty, Hughes, Barrett, Nielsen, Holm, Lindgren, Petrović, Kovač, Horvat, Aydın, Yılmaz, Santos, Vidal, Marchetti, Esposito',
);

export const SUFFIXES = ['Jr.', 'II', 'III'];

export const NAME_POOLS = {
  basketball: { first: MEN_FIRST, last: US_LAST, suffixRate: 0.06 },
  womensBasketball: { first: WOMEN_FIRST, last: US_LAST, suffixRate: 0 },
  football: { first: MEN_FIRST, last: US_LAST, suffixRate: 0.08 },
  baseball: { first: MLB_FIRST, last: MLB_LAST, suffixRate: 0.04 },
  hockey: { first: HOCKEY_FIRST, last: HOCKEY_LAST, suffixRate: 0 },
  soccer: { first: SOCCER_FIRST, last: SOCCER_LAST, suffixRate: 0 },
} as const satisfies Record<string, NamePool>;

/** Esports handles: two parts run together ("zenkai"). */
export const HANDLE_PARTS = list(
  'zen, kai, rex, nova, lux, vex, ryu, taro, shin, echo, bolt, pyro, jin, kross, mira, sol, fang, dusk, hex, orbit, quill, rune, sky, trix, yul, haze, mako, pix, arc, lumo',
);

/** Real stars' names that common parts could spell: never given to a simulated player. */
export const FAMOUS = new Set(
  list(
    'Anthony Davis, Cameron Johnson, Jalen Williams, Derrick White, Marcus Smart, Jamal Murray, Keegan Murray, Miles Bridges, Tyler Herro, Josh Allen, Dylan Harper, Cole Anthony, Evan Mobley, Trey Murphy, Caleb Williams, Bryce Young, Cody Bellinger, Kyle Tucker, Jose Ramirez, José Ramírez, Luis Garcia, Luis García, Francisco Lindor, Rafael Devers, Carlos Correa, Nolan Arenado, Travis Kelce, Tanner Houck, Gavin Lux, Quinn Hughes, Jake Oettinger, Logan Cooley, Lucas Hernández, Nico Williams, Marco Reus, Lorenzo Pellegrini, Joel Embiid, Derek Carr, Spencer Dinwiddie, Kyle Anderson',
  ),
);
