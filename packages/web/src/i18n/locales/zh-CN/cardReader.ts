/** The card reader companion (spec §1 and §8: the local plug-in that reads a card when issuing it). */
export default {
  read: '读卡',
  reading: '请将卡片放在读卡器上…',
  errors: {
    noWebSocket: '当前浏览器不支持 WebSocket，无法连接读卡插件，请使用新版 Chrome、Edge 或 Firefox',
    notStarted: '读卡插件未启动：请在本机启动读卡插件（csms-card-reader）后重试；若已启动，请用 --origin 允许本控制台的地址',
    noDriver: '未安装读卡器驱动或未连接读卡器，请安装驱动并连接读卡器后重试',
    noCard: '未检测到卡片，请将卡片放在读卡器上后重试',
    timeout: '读卡超时，请重试',
  },
};
