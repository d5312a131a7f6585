/** Warning management (issue 17 item 3): the screen's own words; fields, kinds, levels, weather words and errors come from the contract. */
const warn = {
  entity: '预警',
  createTitle: '录入预警',
  saved: '预警已保存',
  stationsTab: '场站天气',
  warningsTab: '预警记录',
  forecast: '天气预报（未来 3 天）',
  days: '日期',
  atRiskOnly: '仅有预警的场站',
  crossed: '预报 {value}，阈值 {threshold}',
  noWarnings: '无',
  noForecast: '暂无预报',
  temperatures: '{max}° / {min}°',
  rainWind: '降水 {rain} mm · 风速 {wind} km/h',
  dayHint: '预警针对的日期（场站当地日期）。',
  end: '解除',
  endConfirm: '确认解除预警 {id} 吗？由天气预报生成的预警解除后，当天不会再次生成。',
  ended: '预警已解除',
  feedOffTitle: '天气预报未开启',
  feedOff: '系统管理员尚未配置天气预报服务（CSMS_WEATHER_URL），不会自动生成预警。请在“预警记录”中人工录入预警。',
  feedOnTitle: '天气预报已开启',
  feedOn: '每 {hours} 小时获取一次各场站的天气预报。最近一次成功获取：{last}；下一次：{next}。',
  feedErrorTitle: '天气预报获取失败',
  feedError: '最近一次获取（{at}）出错：{error}。系统会自动重试；上次成功获取：{last}。',
  never: '尚未获取',
  fetchNow: '立即获取',
  fetchQueued: '已开始获取天气预报，稍后刷新列表即可看到结果',
  rules: '预警规则',
  rulesTitle: '预警规则',
  rulesHint:
    '预报超过阈值时为场站生成“较重”预警，远超阈值时为“严重”（高温 +5 °C、低温 −5 °C、大风 +25 km/h、暴雨 2 倍）。留空表示不启用该规则。',
  rulesDefault: '当前使用默认规则，保存后生效于本运营商。',
  rulesUpdated: '最近由 {name} 于 {time} 修改。',
  rulesSaved: '预警规则已保存，已按新规则重新评估已有预报',
  provider: '运营商',
};

const stationWeather = { entity: '场站天气' };

export { stationWeather };
export default warn;
