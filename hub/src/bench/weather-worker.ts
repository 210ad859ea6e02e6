// One game of `cng bench weather` in a worker thread: the options in, the figures back.
import { parentPort, workerData } from "node:worker_threads";
import { type WeatherGameOptions, weatherGame } from "./weather-game.js";

const figures = await weatherGame(workerData as WeatherGameOptions);
// the bench ends the thread once it has the figures
parentPort!.postMessage(figures);
