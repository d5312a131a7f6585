import { Background, MarkerType, Position, ReactFlow, type Edge, type Node } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import './state-flow-chart.css';
import { theme } from 'antd';

export type FlowNodeState = 'done' | 'current' | 'todo';

export interface FlowChartNode {
  /** The state's key (`data-status` of the drawn node). */
  id: string;
  label: string;
  state: FlowNodeState;
  x: number;
  y: number;
}

export interface FlowChartEdge {
  from: string;
  to: string;
  done: boolean;
  times: number;
  /** A move back against the main line, drawn around the nodes. */
  back?: boolean;
}

/**
 * A record's flow as a React Flow diagram (DESIGN.md §10 "a maintained diagram library"): the states
 * where the caller places them, those passed and the moves made highlighted, the current state in the
 * primary colour, a move made more than once marked with how many times. Read only.
 */
export function StateFlowChart({
  nodes,
  edges,
  testId,
  height = 240,
}: {
  nodes: FlowChartNode[];
  edges: FlowChartEdge[];
  testId: string;
  height?: number;
}) {
  const { token } = theme.useToken();
  const look = {
    done: { background: token.colorSuccessBg, border: `1px solid ${token.colorSuccess}`, color: token.colorText },
    current: { background: token.colorPrimary, border: `2px solid ${token.colorPrimary}`, color: token.colorWhite, fontWeight: 600 },
    todo: { background: token.colorBgContainer, border: `1px dashed ${token.colorBorder}`, color: token.colorTextTertiary },
  } as const;
  const drawnNodes: Node[] = nodes.map((n) => ({
    id: n.id,
    position: { x: n.x, y: n.y },
    data: { label: n.label },
    sourcePosition: Position.Right,
    targetPosition: Position.Left,
    draggable: false,
    connectable: false,
    className: `flow-node-${n.state}`,
    domAttributes: { 'data-status': n.id, 'data-state': n.state } as Node['domAttributes'],
    style: { ...look[n.state], width: 130, borderRadius: 6, fontSize: 13 },
  }));
  const drawnEdges: Edge[] = edges.map((e) => {
    const colour = e.done ? token.colorSuccess : token.colorBorder;
    return {
      id: `${e.from}-${e.to}`,
      source: e.from,
      target: e.to,
      type: e.back ? 'smoothstep' : 'default',
      ...(e.back ? { pathOptions: { offset: 30 } } : {}),
      label: e.times > 1 ? `×${e.times}` : undefined,
      animated: false,
      style: { stroke: colour, strokeWidth: e.done ? 2 : 1, strokeDasharray: e.done ? undefined : '4 4' },
      markerEnd: { type: MarkerType.ArrowClosed, color: colour },
    };
  });
  return (
    <div style={{ height, border: `1px solid ${token.colorBorderSecondary}`, borderRadius: 6 }} data-testid={testId} className="state-flow">
      <ReactFlow
        nodes={drawnNodes}
        edges={drawnEdges}
        fitView
        fitViewOptions={{ padding: 0.15 }}
        nodesDraggable={false}
        nodesConnectable={false}
        elementsSelectable={false}
        panOnDrag={false}
        zoomOnScroll={false}
        zoomOnPinch={false}
        zoomOnDoubleClick={false}
        preventScrolling={false}
      >
        <Background gap={16} size={1} />
      </ReactFlow>
    </div>
  );
}
