# GLM-5.3's prefill server at launch (the article's numbers; the flags are
# SGLang's, python/sglang/srt/server_args.py).
docker run --gpus all --shm-size 32g --network host --privileged \
  -v /models:/models \
  lmsysorg/sglang:v0.5.20-cu129 \
  python3 -m sglang.launch_server \
    --model-path zai-org/GLM-5.3 \
    --trust-remote-code \
    --tp-size 8 \
    --context-length 1048576 \
    --max-total-tokens 681280 \
    --page-size 1 \
    --mem-fraction-static 0.85 \
    --chunked-prefill-size 16384 \
    --kv-cache-dtype fp8_e4m3 \
    --disaggregation-mode prefill \
    --disaggregation-transfer-backend mooncake \
    --disaggregation-ib-device mlx5_0,mlx5_1,mlx5_2,mlx5_3 \
    --host 0.0.0.0 --port 30000
