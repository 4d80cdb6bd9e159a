// Original file: libs/contracts/proto/tailsync/v1/common.proto


export interface PingRequest {
}

export interface PingRequest__Output {
}
