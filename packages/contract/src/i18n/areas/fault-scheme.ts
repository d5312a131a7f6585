/**
 * Recommended fixes for the OCPP 1.6 ChargePointErrorCode values (issue 17 item 1), one step per line.
 * A work order shows the scheme of its fault code; a code outside this list gets `other`'s.
 */
export const faultSchemeZh = {
  ConnectorLockFailure: {
    title: '枪锁故障',
    steps:
      '检查枪头是否插到位，锁舌有无异物或变形\n在充电桩上执行一次解锁（远程解锁或本地按钮），观察锁止电机是否动作\n测量锁止电机供电与反馈信号，必要时更换枪锁组件\n恢复后插枪试充一次，确认锁止与解锁均正常',
  },
  EVCommunicationError: {
    title: '车桩通讯故障',
    steps:
      '询问车主车型，确认车辆支持该充电接口与协议\n检查枪头 CP/CC（直流为 CAN 与辅助电源）针脚是否烧蚀、弯曲或脏污\n用另一辆车或测试仪试充，判断是车端还是桩端问题\n桩端问题时检查通讯板与线缆，更换后复测',
  },
  GroundFailure: {
    title: '接地 / 漏电故障',
    steps:
      '断电并挂牌，按安全规程作业\n检查进线接地与桩体接地是否可靠，测量接地电阻\n检查漏电保护器（RCD）是否跳闸，排查线缆绝缘破损与进水\n处理后合闸，试充并确认漏电保护不再动作',
  },
  HighTemperature: {
    title: '温度过高',
    steps:
      '检查散热风扇是否运转，风道与滤网是否堵塞\n查看环境温度与阳光直射情况，必要时加装遮阳\n检查枪头与端子温度传感器，排查接触不良引起的发热\n清洁或更换风扇后试充，观察温度曲线',
  },
  InternalError: {
    title: '内部故障',
    steps:
      '远程读取诊断文件，查看故障前的日志\n尝试远程软重启；无效时现场断电重启\n检查主控板、电源模块指示灯与连接线\n仍无法恢复时更换故障模块，并记录更换部件',
  },
  LocalListConflict: {
    title: '本地授权列表冲突',
    steps: '在充电桩配置中查看本地列表版本\n重新下发完整本地列表\n确认冲突卡片的状态与有效期，修正后再次下发',
  },
  NoError: {
    title: '充电桩报告故障状态（无具体故障码）',
    steps: '查看该桩最近的状态通知与告警记录\n远程读取诊断文件或现场查看桩端屏幕上的故障信息\n根据实际故障按对应方案处理',
  },
  OtherError: {
    title: '其他故障',
    steps: '查看厂商故障码与附加信息，对照厂商手册\n远程读取诊断文件\n现场检查后按厂商指引处理，并记录所换部件',
  },
  OverCurrentFailure: {
    title: '过流故障',
    steps:
      '检查输出回路有无短路，线缆与枪头是否损坏\n核对充电桩最大电流配置与充电配置文件限值\n检查电流采样与功率模块，必要时更换\n试充并观察电流是否稳定在限值以内',
  },
  OverVoltage: {
    title: '过压故障',
    steps: '测量进线电压，确认电网电压是否超出允许范围\n检查电压采样回路\n电网问题时联系供电方；桩端问题时更换采样板或电源模块',
  },
  PowerMeterFailure: {
    title: '电表故障',
    steps: '检查电表通讯线与供电\n核对电表读数是否上报、是否跳变\n更换电表后核对计量，并检查期间的充电记录是否需要确认',
  },
  PowerSwitchFailure: {
    title: '接触器 / 继电器故障',
    steps: '断电后检查接触器触点是否粘连或烧蚀\n检查接触器线圈电压与驱动信号\n更换接触器后多次启停试充',
  },
  ReaderFailure: {
    title: '读卡器故障',
    steps: '检查读卡器指示灯与连接线\n用已知可用的卡片刷卡测试\n更换读卡器，并确认刷卡启动与停止正常',
  },
  ResetFailure: {
    title: '重启失败',
    steps: '现场断电等待 30 秒后重新上电\n查看启动日志与固件版本，必要时重新升级固件\n仍无法启动时更换主控板',
  },
  UnderVoltage: {
    title: '欠压故障',
    steps: '测量进线电压与相序\n检查进线开关、端子是否松动\n电网问题时联系供电方；桩端问题时检查电源模块',
  },
  WeakSignal: {
    title: '通讯信号弱',
    steps: '查看充电桩网络信号强度与掉线记录\n调整或更换天线位置，检查 SIM 卡与网线\n必要时改用有线网络或加装信号放大器',
  },
  Feedback: {
    title: '用户反馈的问题',
    steps:
      '阅读反馈描述并查看所附图片\n查看该桩最近的状态通知、告警与充电记录\n必要时联系反馈人了解现场情况\n现场检查后按对应故障方案处理，并记录所换部件',
  },
  other: {
    title: '厂商或自定义故障码',
    steps: '对照厂商手册查找该故障码\n远程读取诊断文件，现场检查\n按厂商指引处理并记录所换部件',
  },
};
