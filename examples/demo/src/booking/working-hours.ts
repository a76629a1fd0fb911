export interface Hours { weekday: number; from: string; to: string }
export interface TimeOff { from: string; to: string; reason: string }
