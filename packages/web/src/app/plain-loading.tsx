import './plain-loading.css';

/** The spinner shown while a part of the console is fetched, drawn without antd (it is in the entry chunk). */
export function PlainLoading() {
  return (
    <div className="csms-plain-loading" role="progressbar" aria-busy="true">
      <span />
    </div>
  );
}
