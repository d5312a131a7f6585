import type { Strings } from './strings.js';
import type { faultSchemeZh } from './fault-scheme.js';

export const faultSchemeEn: Strings<typeof faultSchemeZh> = {
  ConnectorLockFailure: {
    title: 'Connector lock failure',
    steps:
      'Check the plug is fully inserted and the lock pin is free of dirt or damage\nUnlock once at the point (remote unlock or the local button) and watch whether the lock motor moves\nMeasure the lock motor supply and feedback; replace the lock assembly if needed\nTry a charge after the fix and check that locking and unlocking both work',
  },
  EVCommunicationError: {
    title: 'Communication with the vehicle failed',
    steps:
      "Ask for the vehicle model and check it supports this connector and protocol\nInspect the plug's CP/CC pins (on DC also CAN and auxiliary power) for burns, bends or dirt\nTry another vehicle or a tester to tell the vehicle's fault from the point's\nIf the point is at fault, check the communication board and cables, replace and test again",
  },
  GroundFailure: {
    title: 'Ground fault / residual current',
    steps:
      'Isolate and tag the supply; work to the safety rules\nCheck the supply earth and the enclosure earth; measure the earth resistance\nCheck whether the RCD tripped; look for damaged cable insulation and water ingress\nSwitch on after the fix, try a charge and check the RCD no longer trips',
  },
  HighTemperature: {
    title: 'Temperature too high',
    steps:
      'Check the cooling fans run and the air path and filters are clear\nCheck the ambient temperature and direct sun; add shade if needed\nCheck the plug and terminal temperature sensors; look for loose contacts heating up\nClean or replace the fans, try a charge and watch the temperature',
  },
  InternalError: {
    title: 'Internal error',
    steps:
      'Fetch the diagnostics file remotely and read the log before the fault\nTry a remote soft reset; if that fails, power-cycle on site\nCheck the controller board, the power modules’ lights and their cables\nIf it still fails, replace the faulty module and record the part',
  },
  LocalListConflict: {
    title: 'Local authorization list conflict',
    steps:
      "Look up the point's local list version in point configuration\nSend the full local list again\nCheck the conflicting card's status and expiry, correct it and send the list again",
  },
  NoError: {
    title: 'The point reports Faulted without a fault code',
    steps:
      "Look at the point's latest status notifications and alarms\nFetch the diagnostics file or read the fault on the point's screen on site\nFollow the scheme of the actual fault",
  },
  OtherError: {
    title: 'Other error',
    steps:
      "Read the vendor error code and information against the vendor's manual\nFetch the diagnostics file remotely\nInspect on site, follow the vendor's instructions and record the parts replaced",
  },
  OverCurrentFailure: {
    title: 'Over-current',
    steps:
      "Check the output circuit for short circuits and the cable and plug for damage\nCheck the point's maximum current setting and the charging profile limits\nCheck the current sensing and the power modules; replace if needed\nTry a charge and check the current stays within the limit",
  },
  OverVoltage: {
    title: 'Over-voltage',
    steps:
      'Measure the supply voltage and check it is within the allowed range\nCheck the voltage sensing circuit\nIf the grid is at fault, contact the utility; if the point is, replace the sensing board or power module',
  },
  PowerMeterFailure: {
    title: 'Power meter failure',
    steps:
      "Check the meter's communication cable and supply\nCheck whether readings arrive and whether they jump\nReplace the meter, check the metering, and see whether records of the period need confirming",
  },
  PowerSwitchFailure: {
    title: 'Contactor / relay failure',
    steps:
      'With the power off, check the contactor for welded or burnt contacts\nCheck the coil voltage and drive signal\nReplace the contactor and try several starts and stops',
  },
  ReaderFailure: {
    title: 'Card reader failure',
    steps:
      "Check the reader's light and cable\nTry a card known to work\nReplace the reader and check that starting and stopping by card work",
  },
  ResetFailure: {
    title: 'Reset failed',
    steps:
      'Power off on site, wait 30 seconds and power on again\nRead the start-up log and firmware version; update the firmware again if needed\nIf it still does not start, replace the controller board',
  },
  UnderVoltage: {
    title: 'Under-voltage',
    steps:
      'Measure the supply voltage and phase order\nCheck the supply breaker and terminals for loose connections\nIf the grid is at fault, contact the utility; if the point is, check the power modules',
  },
  WeakSignal: {
    title: 'Weak signal',
    steps:
      "Look at the point's signal strength and its disconnections\nMove or replace the antenna; check the SIM card and network cable\nIf needed, switch to a wired network or add a signal booster",
  },
  Feedback: {
    title: 'Problem reported by a user',
    steps:
      "Read the feedback's description and look at its pictures\nCheck the point's recent status notifications, alarms and charging records\nAsk the person who filed it about the site when needed\nInspect on site, fix it by the matching fault's scheme and record the components replaced",
  },
  other: {
    title: 'Vendor or custom fault code',
    steps:
      "Look the code up in the vendor's manual\nFetch the diagnostics file and inspect on site\nFollow the vendor's instructions and record the parts replaced",
  },
};
