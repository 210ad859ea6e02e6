// What op handlers may reach.
import type { GameHost } from "../game/host.js";
import type { BatteryCalibration } from "../guns/battery.js";
import type { MountWizard } from "../guns/mount.js";
import type { OtaBundle, OtaService } from "../guns/ota.js";
import type { GunService } from "../guns/service.js";
import type { PlayService } from "../play/play.js";
import type { Seat } from "../rules/index.js";
import type { DeviceId, HostDevices } from "../store/devices.js";
import type { SecretStore } from "../store/secrets.js";
import type { PinLogin } from "./pin-login.js";

export interface OpContext {
  table: string;
  guns: GunService;
  secrets: SecretStore;
  /** the devices that log in as the host with a token */
  devices: HostDevices;
  /** closes a revoked device's connections (embedded broker; an external one drops them at its next login) */
  kickDevice: (device: DeviceId) => void;
  /** closes the consoles on a seat's token (embedded broker; an external one knows no seat logins) */
  kickSeats: (seat: Seat) => void;
  /** the hub's time */
  now: () => number;
  /** the PIN exchange: a host device's token for a device that knows the PIN, nothing on the air to learn it from */
  pinLogin: PinLogin;
  game: GameHost;
  play: PlayService;
  /** the IMU mounting step of the calibration wizard */
  mount: MountWizard;
  /** a gun's battery reading calibrated from the true volts */
  battery: BatteryCalibration;
  ota: OtaService;
  /** the bundle the hub sends to a board's guns, or why it cannot */
  otaBundle: (board: string) => OtaBundle | string;
}
