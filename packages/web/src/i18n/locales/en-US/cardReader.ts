import type { UiCatalogue } from '../zh-CN';

const cardReader: UiCatalogue['cardReader'] = {
  read: 'Read card',
  reading: 'Place the card on the reader…',
  errors: {
    noWebSocket:
      'This browser does not support WebSocket, so it cannot reach the card reader plug-in. Use a recent Chrome, Edge or Firefox.',
    notStarted:
      "The card reader plug-in is not running: start it on this computer (csms-card-reader) and try again. If it is running, allow this console's address with --origin.",
    noDriver: 'No card reader driver is installed or no reader is connected. Install the driver, connect the reader and try again.',
    noCard: 'No card detected. Place the card on the reader and try again.',
    timeout: 'Reading the card timed out. Try again.',
  },
};
export default cardReader;
